/** A request's life on screen: loading, its data, or its error, and a way to run it again. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export interface RequestState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Runs the request again; `quiet` keeps the current data on screen meanwhile (auto-refresh). */
  reload(quiet?: boolean): void;
}

function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, 'client_error', String(error));
}

/** Runs `load` now and whenever `key` changes; a late answer of an earlier key is ignored. */
export function useRequest<T>(load: () => Promise<T>, key: string): RequestState<T> {
  const [state, setState] = useState<Omit<RequestState<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  const run = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setState((s) => ({ ...s, loading: true, error: undefined }));
    loadRef.current().then(
      (data) => mine === generation.current && setState({ data, error: undefined, loading: false }),
      (error) =>
        mine === generation.current &&
        setState((s) => ({ data: quiet ? s.data : undefined, error: toApiError(error), loading: false })),
    );
  }, []);

  useEffect(() => {
    setState({ data: undefined, error: undefined, loading: true });
    run(false);
  }, [key, run]);

  return { ...state, reload: (quiet = false) => run(quiet) };
}

/** Calls `tick` every `ms` while the page is visible. */
export function useInterval(tick: () => void, ms: number): void {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') tickRef.current();
    }, ms);
    return () => clearInterval(id);
  }, [ms]);
}
