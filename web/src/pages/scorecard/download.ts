// Exports need the session's bearer, so they are fetched here and handed to the browser as a
// file (an object URL on a temporary link), never opened as a bare link.

import { ApiError } from '../../api';
import { session } from '../../session';

export async function download(path: string, filename: string): Promise<void> {
  const token = session.token();
  const response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(response.status, body.error ?? `The service answered ${response.status}.`, null);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
