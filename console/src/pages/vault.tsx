import { useCallback, useState } from 'react';
import { Badge, ErrorNote, Time, TableHead } from '../components/common';
import { useConsole } from '../console-context';
import { answer } from '../gateway';
import { href } from '../router';
import { useData } from '../use-data';
import { CreateCredential } from './vault/create-credential';
import { CredentialDetail } from './vault/credential-detail';
import { KIND_LABEL } from './vault/fields';

/** Credentials and secrets with their metadata, where each is used; admins add, rotate and delete. */
export function VaultPage({ credentialId }: { credentialId: string | null }) {
  const { client, can } = useConsole();
  const list = useData(
    useCallback(
      (signal: AbortSignal) =>
        answer(client.GET('/v1/credentials', { params: { query: { limit: 200 } }, signal })).then(
          (page) => page.items,
        ),
      [client],
    ),
  );
  const credentials = list.value;
  // What a deletion did, said on the list it returns to until the person opens another credential.
  const [deleted, setDeleted] = useState<{ id: string; message: string } | null>(null);
  if (deleted !== null && credentialId !== null && credentialId !== deleted.id) setDeleted(null);
  const selected = credentials?.find((credential) => credential.id === credentialId) ?? null;
  const showsOrganization = credentials?.some((credential) => credential.kind === 'pipes') ?? false;
  return (
    <>
      <h1>Vault</h1>
      <p>
        Upstream credentials and secrets of this tenant. Values are never shown: only a hint of the last
        characters of a key id or token.
      </p>
      <ErrorNote message={list.problem} onRetry={list.retry} />
      {deleted && (
        <p className="verdict good" role="status">
          {deleted.message}
        </p>
      )}
      {credentials === null ? (
        !list.problem && <p role="status">Loading…</p>
      ) : credentials.length === 0 ? (
        <p className="empty">The vault is empty.</p>
      ) : (
        <table className="data">
          <TableHead
            columns={[
              'Name',
              'Kind',
              showsOrganization && 'Organization',
              'Hint / fields',
              'Version',
              'Created',
              'Last used',
              'Refused upstream',
            ]}
          />
          <tbody>
            {credentials.map((credential) => (
              <tr key={credential.id} className={credential.id === credentialId ? 'selected' : undefined}>
                <td>
                  <a
                    href={href('vault', credential.id)}
                    aria-current={credential.id === credentialId ? 'true' : undefined}
                  >
                    {credential.name}
                  </a>
                </td>
                <td>{KIND_LABEL[credential.kind]}</td>
                {showsOrganization && <td className="wrap">{credential.organizationId ?? '—'}</td>}
                <td>{credential.fields?.join(', ') || (credential.hint ? `…${credential.hint}` : '—')}</td>
                <td>{credential.version}</td>
                <td>
                  <Time at={credential.createdAt} />
                </td>
                <td>
                  <Time at={credential.lastUsedAt} />
                </td>
                <td>
                  {credential.rejectedAt ? (
                    <Badge text={`refused (${credential.rejectedStatus ?? '?'})`} tone="bad" />
                  ) : (
                    <span className="muted">no</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {selected && (
        <CredentialDetail
          key={selected.id}
          credential={selected}
          onChanged={list.retry}
          onDeleted={(message) => {
            setDeleted({ id: selected.id, message });
            list.retry();
          }}
        />
      )}
      {credentialId !== null && credentials !== null && !selected && !deleted && (
        <p className="empty">This credential no longer exists.</p>
      )}
      {can('CredentialsController_create') && <CreateCredential onCreated={list.retry} />}
    </>
  );
}
