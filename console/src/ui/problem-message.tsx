// An error as a person reads it: the problem's title and detail, and the request id to quote.
import { GroundcheckError } from '@groundcheck/sdk';

export function ProblemMessage({ error }: { error: unknown }) {
  if (error instanceof GroundcheckError) {
    const problem = error.problem;
    return (
      <div role="alert" className="notice error">
        <p>
          <strong>{problem?.title ?? error.message}</strong>
          {problem?.detail ? ` ${problem.detail}` : ''}
        </p>
        {problem?.errors && problem.errors.length > 0 && (
          <ul>
            {problem.errors.map((item) => (
              <li key={`${item.pointer ?? ''}${item.detail}`}>
                {item.pointer ? <code>{item.pointer}</code> : null} {item.detail}
              </li>
            ))}
          </ul>
        )}
        {error.requestId && <p className="muted">Request id: {error.requestId}</p>}
      </div>
    );
  }
  return (
    <div role="alert" className="notice error">
      <p>{error instanceof Error ? error.message : 'Something went wrong.'}</p>
    </div>
  );
}
