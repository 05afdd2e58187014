// The "last N days" choice shared by the spend and distribution pages.

const choices = [7, 30, 90, 365];

export function WindowSelect({ days, onChange }: { days: string; onChange: (days: string) => void }) {
  const options = choices.map(String);
  if (!options.includes(days)) options.unshift(days);
  return (
    <label class="inline-filter">
      Window
      <select value={days} onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}>
        {options.map((value) => (
          <option value={value}>Last {value} days</option>
        ))}
      </select>
    </label>
  );
}
