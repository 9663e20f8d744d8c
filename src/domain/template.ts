// Repository templates offered by the API: a .gitignore and a licence text by name.

export interface GitignoreTemplate {
  name: string;
  source: string;
}

export interface LicenseTemplate {
  name: string;
  body: string;
}
