import { createContext, type ComponentChildren, type InputHTMLAttributes, type SelectHTMLAttributes } from 'preact';
import { useContext, useId, useState } from 'preact/hooks';
import { ApiError } from '../api/errors';
import { ErrorNotice } from './notice';

/** The input's own attributes the console uses. */
type InputAttributes = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  | 'type'
  | 'required'
  | 'autoComplete'
  | 'defaultValue'
  | 'value'
  | 'onInput'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'class'
  | 'readOnly'
  | 'step'
  | 'min'
  | 'max'
>;

type InputProps = InputAttributes & {
  label: string;
  name: string;
  hint?: ComponentChildren;
  /** The service's complaint about this field, from the last submission. */
  error?: string | undefined;
};

const FieldErrors = createContext<ApiError | undefined>(undefined);

/** The 422 complaint of the enclosing form's last submission about one field. */
function useFieldError(name: string): string | undefined {
  return useContext(FieldErrors)?.fieldMessage(name);
}

/** The enclosing form's last refusal, for fields that find their own complaint in it (by a path in the body). */
export function useFormError(): ApiError | undefined {
  return useContext(FieldErrors);
}

/** A labelled input; its hint and error (given, or the form's 422 about it) are tied to it for screen readers. */
export function Field({ label, hint, error: given, ...input }: InputProps) {
  const id = useId();
  const fromForm = useFieldError(input.name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={given ?? fromForm}>
      {(described, invalid) => (
        <input id={id} aria-describedby={described} aria-invalid={invalid || undefined} {...(input as InputHTMLAttributes<HTMLInputElement>)} />
      )}
    </FieldFrame>
  );
}

interface FrameProps {
  /** The control's id, which the label names. */
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | undefined;
  /** The control, given the ids that describe it and whether it is refused. */
  children: (described: string | undefined, invalid: boolean) => ComponentChildren;
}

/** A field's frame: label, the control, its hint and its error, tied together for screen readers. */
export function FieldFrame({ id, label, hint, error, children }: FrameProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(described, error !== undefined)}
      {hint ? (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type SelectProps = Pick<SelectHTMLAttributes<HTMLSelectElement>, 'defaultValue' | 'value' | 'onChange' | 'required'> & {
  label: string;
  name: string;
  options: { value: string; label: string }[];
  hint?: ComponentChildren;
};

export function SelectField({ label, options, hint, ...select }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...(select as SelectHTMLAttributes<HTMLSelectElement>)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The values of a form's named fields. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === 'string') values[key] = value;
  });
  return values;
}

interface FormProps {
  /** Called with the named fields' values; a thrown error is shown above the button. */
  onSubmit: (values: Record<string, string>, form: HTMLFormElement) => Promise<void> | void;
  submitLabel: string;
  busyLabel?: string;
  children: ComponentChildren;
  /** The form's accessible name. */
  label?: string;
  class?: string;
  secondary?: ComponentChildren;
}

/**
 * A form that submits through the API: the button says it is busy, the service's error (and each
 * field's 422 complaint, through `fieldErrors`) is shown, nothing is sent twice.
 */
export function Form({ onSubmit, submitLabel, busyLabel, children, label, secondary, class: className }: FormProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(formValues(form), form);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class={`form ${className ?? ''}`} onSubmit={submit} aria-label={label} noValidate={false}>
      <FieldErrors.Provider value={error instanceof ApiError ? error : undefined}>{children}</FieldErrors.Provider>
      <ErrorNotice error={error} />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy} aria-busy={busy}>
          {busy ? (busyLabel ?? `${submitLabel}…`) : submitLabel}
        </button>
        {secondary}
      </div>
    </form>
  );
}
