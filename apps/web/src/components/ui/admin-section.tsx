import type { ReactNode } from 'react';

/** A back-office section: its heading in a toolbar with the section's own controls (a filter, a download), then its content. */
export function AdminSection({ id, title, tools, children }: { id: string; title: string; tools?: ReactNode; children: ReactNode }) {
  return (
    <section className="admin-section" aria-labelledby={`${id}-title`}>
      <div className="admin-toolbar">
        <h2 id={`${id}-title`}>{title}</h2>
        {tools}
      </div>
      {children}
    </section>
  );
}

/** A block inside a back-office section: its heading (`titleId` when a table names itself by it), then its content. */
export function AdminBlock({ title, titleId, children }: { title: string; titleId?: string; children: ReactNode }) {
  return (
    <div className="admin-block">
      <h3 id={titleId}>{title}</h3>
      {children}
    </div>
  );
}
