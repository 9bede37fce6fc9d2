/**
 * The Activity page's "Filters" form: type (from the event-type catalog), project and environment
 * (only those the member may read; no "All projects" for a member without organization-wide
 * read), actor and time range. Applying writes them to the URL.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useFilterOptions } from './activity-filter-options.js';
import type { ActivityFilters } from './activity-query.js';
import { defaultProject, readsOrganization } from './activity-scope.js';
import type { Me } from './types.js';

interface Props {
  me: Me;
  filters: ActivityFilters;
  onApply(next: ActivityFilters): void;
}

const NO_FILTERS: ActivityFilters = { type: '', project: '', environment: '', actor: '', from: '', to: '' };

/** A labelled field. */
function Field({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

/** Options of a select, keeping a value from the URL that the list lacks. */
function Options({ names, value }: { names: string[]; value: string }) {
  const all = value && !names.includes(value) ? [...names, value] : names;
  return (
    <>
      {all.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </>
  );
}

interface SelectProps {
  name: 'type' | 'project' | 'environment';
  label: string;
  value: string;
  /** The first option's text, for no filter (the empty value); null where there is no such option. */
  all: string | null;
  names: string[];
  onChange(event: { currentTarget: { value: string } }): void;
  disabled?: boolean;
}

/** A filter chosen from a list: the option for no filter, then the names. */
function Select({ name, label, value, all, names, onChange, disabled }: SelectProps) {
  const id = `filter-${name}`;
  return (
    <Field id={id} label={label}>
      <select id={id} value={value} onChange={onChange} disabled={disabled}>
        {all !== null && <option value="">{all}</option>}
        <Options names={names} value={value} />
      </select>
    </Field>
  );
}

/** The form; its fields start from `filters` and apply together. */
export function ActivityFiltersForm({ me, filters, onApply }: Props) {
  const [draft, setDraft] = useState(filters);
  const current = JSON.stringify(filters);
  useEffect(() => setDraft(JSON.parse(current) as ActivityFilters), [current]);
  const project = draft.project || defaultProject(me);
  const options = useFilterOptions(me, project);
  const set = (key: keyof ActivityFilters) => (event: { currentTarget: { value: string } }) =>
    setDraft({
      ...draft,
      [key]: event.currentTarget.value,
      ...(key === 'project' ? { environment: '' } : {}),
    });
  const submit = (event: Event) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form class="filters card" aria-label="Filters" onSubmit={submit}>
      <Select
        name="type"
        label="Type"
        value={draft.type}
        all="All types"
        names={options.types}
        onChange={set('type')}
      />
      <Select
        name="project"
        label="Project"
        value={project}
        all={readsOrganization(me) ? 'All projects' : null}
        names={options.projects}
        onChange={set('project')}
      />
      <Select
        name="environment"
        label="Environment"
        value={draft.environment}
        all={options.allEnvironments ? 'All environments' : 'All granted environments'}
        names={options.environments}
        onChange={set('environment')}
        disabled={!project}
      />
      <Field id="filter-actor" label="Actor">
        <input
          id="filter-actor"
          value={draft.actor}
          onInput={set('actor')}
          autoComplete="off"
          spellcheck={false}
        />
      </Field>
      <Field id="filter-from" label="From">
        <input id="filter-from" type="datetime-local" value={draft.from} onInput={set('from')} />
      </Field>
      <Field id="filter-to" label="To">
        <input id="filter-to" type="datetime-local" value={draft.to} onInput={set('to')} />
      </Field>
      <div class="filter-actions">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={() => onApply(NO_FILTERS)}>
          Clear
        </button>
      </div>
    </form>
  );
}
