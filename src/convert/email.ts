import type { components } from '../../generated/api.d.ts';
import type { EmailWithOwner } from '../db/email-address.repository.ts';

export type ApiEmail = components['schemas']['Email'];

export function toEmail(email: EmailWithOwner): ApiEmail {
  return {
    email: email.email,
    verified: email.isActivated,
    primary: email.isPrimary,
    user_id: email.userId,
    username: email.user.name,
  };
}
