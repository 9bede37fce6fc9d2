/** Loading, empty and error states, the same on every screen. */
import type { ComponentChildren } from 'preact';
import type { ApiError } from './api.js';

export function Status({ children }: { children: ComponentChildren }) {
  return (
    <p class="status" role="status">
      <span class="spinner" aria-hidden="true" />
      {children}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function ErrorNote({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div class="error-note" role="alert">
      <p>
        <strong>Could not load this.</strong> {error.message}
      </p>
      {onRetry && (
        <button type="button" class="secondary" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}
