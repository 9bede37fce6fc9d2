/**
 * Modal dialogs on the native `<dialog>` (focus moves in and is kept there, Escape closes, focus
 * returns to where it was): a signing secret shown once, and a confirmation before a change that
 * cannot be undone.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from './icons.js';

function useModal(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    const close = () => onClose();
    dialog.addEventListener('close', close);
    return () => {
      dialog.removeEventListener('close', close);
      opener?.focus?.();
    };
  }, []);
  return ref;
}

export function SecretDialog({ title, secret, onClose }: { title: string; secret: string; onClose(): void }) {
  const ref = useModal(onClose);
  const [copied, setCopied] = useState<string | null>(null);
  const secretRef = useRef<HTMLElement>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard access (an insecure origin, a refused permission): select it for Ctrl+C instead.
      const range = document.createRange();
      if (secretRef.current) range.selectNodeContents(secretRef.current);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };

  return (
    <dialog ref={ref} class="dialog" aria-labelledby="secret-title" aria-describedby="secret-warning">
      <h2 id="secret-title">{title}</h2>
      <p id="secret-warning" class="warning">
        <Icon name="warning" /> Copy this secret now and keep it with your receiver:{' '}
        <strong>it will not be shown again.</strong>
      </p>
      <p class="secret">
        <span class="visually-hidden">Signing secret: </span>
        <code ref={secretRef}>{secret}</code>
      </p>
      <p class="copied" role="status">
        {copied}
      </p>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy secret
        </button>
        <button type="button" class="secondary" onClick={() => ref.current?.close()}>
          Done
        </button>
      </div>
    </dialog>
  );
}

export function ConfirmDialog({
  title,
  children,
  confirm,
  danger,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ComponentChildren;
  confirm: string;
  danger?: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const ref = useModal(onClose);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="confirm-title" aria-describedby="confirm-body">
      <h2 id="confirm-title">{title}</h2>
      <div id="confirm-body">{children}</div>
      <form method="dialog" class="actions">
        <button
          type="button"
          class={danger ? 'danger' : undefined}
          onClick={() => {
            onConfirm();
            ref.current?.close();
          }}
        >
          {confirm}
        </button>
        <button type="submit" class="secondary" autofocus>
          Cancel
        </button>
      </form>
    </dialog>
  );
}
