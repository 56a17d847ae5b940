// A screen's heading and title. On navigation, focus moves to the heading so that keyboard and
// screen-reader users start at the new screen's top instead of on the link they followed.
import { type ReactNode, useEffect, useRef } from 'react';

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Groundcheck`;
    heading.current?.focus();
  }, [title]);
  return (
    <>
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </>
  );
}
