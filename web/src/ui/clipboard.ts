// Copying for the Copy buttons. Where the clipboard API is missing or refused (plain-http hosts,
// a locked-down browser) the text is selected instead, so Ctrl+C / long-press finishes the job.

export type CopyOutcome = 'copied' | 'selected';

export async function copyOrSelect(text: string, select: () => void): Promise<CopyOutcome> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    select();
    return 'selected';
  }
}
