// Connecting an SE Ranking project with the account's Project API key, or replacing the key of
// an existing connection. The server proves the key by listing its projects: one project is
// used as it is; when the key sees several, its 400 lists them (`companies`) and the form shows
// them to choose from, the key still typed. Replacing a key asks for the project's id as text
// (the connection's project is known). Any refusal is shown under the form in the server's
// words. The key is stored encrypted and never shown again.

import { useId } from 'preact/hooks';
import { Field } from '../../../../ui/field';
import { KeyForm, type Refusal } from '../../key-form';
import { kindPath } from '../../words';

interface GeoABody {
  api_key: string;
  company_id?: string;
}

/** An SE Ranking project as the server's 400 lists it. */
interface Company {
  id: string;
  name: string;
  domain: string;
}

/** The projects a refusal lists (`{error, companies: [...]}`), or none. */
function companiesOf(body: unknown): Company[] {
  const listed = (body as { companies?: unknown } | null)?.companies;
  if (!Array.isArray(listed)) return [];
  return listed.filter(
    (company): company is Company =>
      typeof company?.id === 'string' && typeof company?.name === 'string' && typeof company?.domain === 'string',
  );
}

function geoABody(values: Record<string, string>): GeoABody {
  const body: GeoABody = { api_key: values.api_key };
  if (values.company_id) body.company_id = values.company_id;
  return body;
}

/** The projects the key sees, to choose one from. */
function CompanyPicker({ companies }: { companies: Company[] }) {
  const id = useId();
  return (
    <>
      <label for={id}>SE Ranking project</label>
      <select id={id} name="company_id" required aria-describedby={`${id}-hint`}>
        {companies.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name} ({company.domain})
          </option>
        ))}
      </select>
      <small id={`${id}-hint`}>This key sees several projects: choose the one to read.</small>
    </>
  );
}

export function GeoAForm({
  slug,
  replacing,
  currentCompany,
  onConnected,
}: {
  slug: string;
  /** True when the product already has this connection: the form replaces its key. */
  replacing: boolean;
  currentCompany?: string;
  onConnected: () => void;
}) {
  // The project is asked for once it matters: when replacing, or when the key sees several.
  const projectField = ({ error, body }: Refusal) => {
    const companies = replacing ? [] : companiesOf(body);
    if (companies.length > 0) return <CompanyPicker companies={companies} />;
    if (!replacing && !error?.startsWith('company_id:')) return null;
    return (
      <Field
        label="SE Ranking project id"
        name="company_id"
        maxLength={64}
        autocomplete="off"
        spellcheck={false}
        inputMode="numeric"
        defaultValue={currentCompany}
        hint="The id of the project to read, one of those listed below when the key sees several. Leave empty when the key sees one project."
      />
    );
  };
  return (
    <KeyForm
      slug={slug}
      path={kindPath('geo_a')}
      replacing={replacing}
      onConnected={onConnected}
      connectLabel="Connect SE Ranking"
      secretWord="key"
      nextRead="sync"
      secret={{
        label: 'SE Ranking API key',
        name: 'api_key',
        what: 'API key',
        maxLength: 500,
        hint: 'From SE Ranking: Settings, API, the Project API key (40 characters). Payback only reads with it, stores it encrypted and never shows it again.',
      }}
      body={geoABody}
      fields={projectField}
    />
  );
}
