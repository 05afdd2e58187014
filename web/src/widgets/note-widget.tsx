// Free text from the spec, as paragraphs (blank lines split them); never parsed as HTML.

import type { NoteWidget as NoteSpec } from './spec';

export function NoteWidget({ widget }: { widget: NoteSpec }) {
  const paragraphs = widget.text.split(/\n\s*\n/).map((part) => part.trim()).filter(Boolean);
  return (
    <div class="note-text">
      {paragraphs.map((paragraph) => (
        <p>{paragraph}</p>
      ))}
    </div>
  );
}
