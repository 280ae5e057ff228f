import type { FormEvent, ReactNode } from 'react';

type SearchFormProps = {
  /** The form's accessible name, or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  className?: string;
  /** The fields whose values become query parameters. */
  fields: readonly string[];
  onSearch: (params: URLSearchParams) => void;
  children: ReactNode;
};

/** A search form (role=search) with its Search button; submits its fields as query parameters. */
export function SearchForm({ label, labelledBy, className = 'form', fields, onSearch, children }: SearchFormProps) {
  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearch(searchParamsFromForm(event.currentTarget, fields));
  }
  return (
    <form className={className} role="search" aria-label={label} aria-labelledby={labelledBy} onSubmit={handleSubmit}>
      {children}
      <p className="actions">
        <button type="submit" className="button button-primary">
          Search
        </button>
      </p>
    </form>
  );
}

/** The submitted fields as query parameters, empty ones left out (so a new search starts at page 0). */
function searchParamsFromForm(form: HTMLFormElement, names: readonly string[]): URLSearchParams {
  const data = new FormData(form);
  const params = new URLSearchParams();
  for (const name of names) {
    const value = data.get(name);
    if (typeof value === 'string' && value.trim() !== '') params.set(name, value.trim());
  }
  return params;
}
