import { useId, useState } from 'preact/hooks';

/** A value to copy (a new API key): read-only, selectable, with a button that copies it. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div class="field copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} class="mono" />
        <button type="button" class="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p class="field-hint" role="status">
        {copied ? 'Copied to the clipboard.' : ''}
      </p>
    </div>
  );
}
