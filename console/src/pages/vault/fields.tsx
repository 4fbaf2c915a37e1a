import type { components } from '../../../../clients/typescript/src';
import { formText } from '../../form';

export type Credential = components['schemas']['CredentialView'];

export const KIND_LABEL: Record<Credential['kind'], string> = {
  secret: 'Secret',
  pipes: 'Pipes API key',
  dashboards: 'Dashboards token',
};

/** The form's text fields, trimmed; password fields are read the same way and never kept. */
export function fieldsOf(form: HTMLFormElement): (name: string) => string {
  const data = new FormData(form);
  return (name) => formText(data, name);
}

/**
 * Empties a form's password fields, and only them: a value typed into the vault leaves the page
 * with its request, while the rest of what was typed stays for a correction.
 */
export function clearSecrets(form: HTMLFormElement): void {
  for (const input of form.querySelectorAll<HTMLInputElement>('input[type="password"]')) input.value = '';
}

export function PasswordField({ name, label }: { name: string; label: string }) {
  const id = `field-${name.replace(/[^A-Za-z0-9-]/g, '-')}`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="password" autoComplete="new-password" spellCheck={false} required />
    </>
  );
}
