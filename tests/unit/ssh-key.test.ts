import { parseSshPublicKey, SshKeyError } from '../../src/domain/ssh-key.ts';

// Generated with ssh-keygen; fingerprints as `ssh-keygen -lf` prints them.
const FIXTURES = [
  {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQCTxXO4wDfR7Au5AHFkWZJARleeGxAtqZHREzrAHfxTl6EilEvpjSG1XueeLnTv/Ti8DcBlyWHsiUaegbGOSSfFZ75l6jrILeA+blBUFdGvvZOHqwrFTA3Gl/k9ggynGA8Js1Q5+SPpxpf1KDZ2g8r29sFSqV9CImRyk7beahpxGKpNmsk8/GCWxA+ZtFwfPKmdYl6jjbYkl7opA4ido7pugtinHckXkT6jKiprSC46x+TtuVr9I8mPvDBnv96I7QZATyhJI4A5KKoudpqCxbPMaTYRqNqyfGaY9dAGc0wqClnazL4H2Jnh0CS7sMiV0ME/wiKaABYv43eUvNkuy2+c1ENAW1K+qGycIXZqixeqdaK0xKXsVQLQGSmWsuuLMGK0UcISIPGMoD0JDnhto+AWVMwcC0zQ0+kt+fIYczDao2e75aQYNYNKUKJUfmLEoH7M4esR1Fs2m6jbJiUZWg2zW44Ds+skJ7VRsqaJvlcVGW7xtdzWz8t+rpNUE5GO/sE= fixture@rsa-3072',
    algorithm: 'rsa',
    bits: 3072,
    fingerprint: 'SHA256:H5CGlGKgOWivksiXDYZVMy1U9kAw1HymSpthuDvaafo',
  },
  {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCHy0bWwRPGACRFjVsXAEu2/dB0rawREFAT6AnCXYhrZvVMQpR25vQfPxPv1pSFoDNqCQ93Pnyt6Isd0an9Fx9OPCz+LJpUlsP9VC2vDGV22xU/XZo8ZcUrh8Ylh0RVe2Di1m/7q0j/l5GvQfIV8bkczLU7msbb5Wq1Sz7vmJJAaawcSgg4iJ4zFQLUGh+9HvaKbINOo4+Vj1TYiPElNStaXlsZkCUFhe+/y/LmRYNEhCjmupj4PKP48KNGba6H95o0TGKbc6GI24Zy/cwNUwMAKe1NN9ArWsTYB7GeZBnXQl8wpnqnGoFQd5OZU63mRsuO9bHshW/gPDPPLCNS6jxJ fixture@rsa-2048',
    algorithm: 'rsa',
    bits: 2048,
    fingerprint: 'SHA256:WN5BgMPHQ6G3fqFreOSI8wlcC5sC9+tORijBqAmjvlU',
  },
  {
    line: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBL34HL0k6x1i0lzdZ7p2nT9g5qGxXIwHf2SraisuOZRib+UzwbrugKO6zMJR0fqGCLZDWDCBGUhVB3T26nzy1dc= fixture@ecdsa-256',
    algorithm: 'ecdsa',
    bits: 256,
    fingerprint: 'SHA256:lwaC+WKSDcBPnXEgszcQDBN5yWwkm1YP9V2H93q7TLM',
  },
  {
    line: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBDY952Xalx5mF1TFb1JJ6o986qcbIyYAfPPioKSTwsPYkkmOtVd80RxBSHYAWvrRjT1Bo94fCMTBLrQ/P3otXn405o5nPl2z4jnh4JoI7/rjDoRPCACCLJmLXkqdoFdxdg== fixture@ecdsa-384',
    algorithm: 'ecdsa',
    bits: 384,
    fingerprint: 'SHA256:S0cTji0C5TAlm0s44AOJOK5lHPWIEqrhvqB7qNiMVFo',
  },
  {
    line: 'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAFUxa7vZvnqfexQzkmwxKZlBJWZv8KI0OBX57IhdFIdJRqobnlw1U9kd7W49hyz18TWOjE5K8nCrLmwuNKSuJF13gEt7g1QmT5yfKyx/6fYauO2oS0H3CiarPIgVMI1kBVpKCUZjYcgUuxO3hTB8RlzMjZwPx7a9+5dLLVEjXhfTl1OMw== fixture@ecdsa-521',
    algorithm: 'ecdsa',
    bits: 521,
    fingerprint: 'SHA256:M2rh6fJkorvYGGVLbKtS+4M+icAYVbrtdEOwax5ykvk',
  },
  {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE8xTNzErH5Ea4s9DnOGt8kZcoTCzG4B3SbAWDc+ijtf fixture@ed25519-256',
    algorithm: 'ed25519',
    bits: 256,
    fingerprint: 'SHA256:fLZzs/mDAR4NyzeIAJMaXpfweiFcWg1bcguqbPGq3Qg',
  },
] as const;

describe('parseSshPublicKey', () => {
  it.each(FIXTURES)(
    'reads $algorithm $bits with the ssh-keygen fingerprint',
    ({ line, algorithm, bits, fingerprint }) => {
      const key = parseSshPublicKey(`${line}\n`);
      expect(key).toMatchObject({ algorithm, bits, fingerprint });
      expect(key.content).toBe(line.split(' ').slice(0, 2).join(' '));
    },
  );

  it('accepts a key without a comment and with surrounding blanks', () => {
    const [type, data] = FIXTURES[5].line.split(' ');
    expect(parseSshPublicKey(`  ${type}   ${data}  `).fingerprint).toBe(FIXTURES[5].fingerprint);
  });

  const ed25519Data = FIXTURES[5].line.split(' ')[1];
  const ed25519Blob = Buffer.from(ed25519Data, 'base64');
  const wire = (...parts: Buffer[]) =>
    Buffer.concat(
      parts.flatMap((part) => [Buffer.from([0, 0, 0, 0].map((_, i) => (part.length >> (8 * (3 - i))) & 0xff)), part]),
    ).toString('base64');

  it.each([
    ['empty text', ''],
    ['a type alone', 'ssh-ed25519'],
    ['data that is not base64', 'ssh-ed25519 not*base64!'],
    ['a type that does not match the data', `ssh-rsa ${ed25519Data}`],
    ['an unsupported type', `ssh-dss ${wire(Buffer.from('ssh-dss'), Buffer.alloc(20))}`],
    ['truncated data', `ssh-ed25519 ${ed25519Blob.subarray(0, ed25519Blob.length - 4).toString('base64')}`],
    ['trailing bytes', `ssh-ed25519 ${Buffer.concat([ed25519Blob, Buffer.from([0, 0, 0, 0])]).toString('base64')}`],
    ['an ed25519 key of the wrong size', `ssh-ed25519 ${wire(Buffer.from('ssh-ed25519'), Buffer.alloc(31, 1))}`],
    [
      'an ECDSA point off the curve',
      `ecdsa-sha2-nistp256 ${wire(Buffer.from('ecdsa-sha2-nistp256'), Buffer.from('nistp256'), Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]))}`,
    ],
    [
      'an ECDSA curve that does not match the type',
      `ecdsa-sha2-nistp256 ${wire(Buffer.from('ecdsa-sha2-nistp256'), Buffer.from('nistp384'), Buffer.alloc(65, 4))}`,
    ],
  ])('refuses %s', (_what, text) => {
    expect(() => parseSshPublicKey(text)).toThrow(SshKeyError);
  });
});
