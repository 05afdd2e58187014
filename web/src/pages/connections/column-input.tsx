// One column (or field path) of an event map: a labelled text input offering the table's
// columns when the schema has been read, marked invalid when the server's refusal names it.

export function ColumnInput({
  label,
  name,
  value,
  onInput,
  columnsList,
  invalid,
  placeholder,
}: {
  label: string;
  /** The input's form name, where a page's scripts or a form read it. */
  name?: string;
  value: string;
  onInput: (value: string) => void;
  /** The id of a `<datalist>` of the table's columns, when known. */
  columnsList?: string;
  invalid?: boolean;
  placeholder?: string;
}) {
  return (
    <label>
      {label}
      <input
        name={name}
        value={value}
        list={columnsList}
        maxLength={300}
        autocomplete="off"
        spellcheck={false}
        placeholder={placeholder}
        aria-invalid={invalid ? true : undefined}
        onInput={(event) => onInput((event.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}
