import type { UseQueryResult } from '@tanstack/react-query';
import type { Key, ReactNode } from 'react';
import { Spinner } from '../../../components/ui/spinner';

/**
 * The frame every back-office table and list shares: a spinner while it loads, the error (announced
 * to screen readers), the `empty` line when there is nothing to list, else `children` with the data.
 * `isEmpty` says where the rows are when the answer is more than an array (a page of jobs).
 */
export function AdminRows<TData>({
  query,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  children,
}: {
  query: UseQueryResult<TData>;
  empty?: string;
  isEmpty?: (data: TData) => boolean;
  children: (data: TData) => ReactNode;
}) {
  if (query.isPending) return <Spinner />;
  if (query.isError)
    return (
      <p className="error-text" role="alert">
        {query.error.message}
      </p>
    );
  if (empty !== undefined && isEmpty(query.data)) return <p className="muted">{empty}</p>;
  return children(query.data);
}

/**
 * A back-office list in AdminRows' frame, one item a record: `cards` an ordered list of cards (a queue,
 * oldest first), `rows` a compact list of one-line forms.
 */
export function AdminList<T>({
  query,
  empty,
  rowKey,
  variant = 'cards',
  children,
}: {
  query: UseQueryResult<T[]>;
  empty?: string;
  rowKey: (row: T) => Key;
  variant?: 'cards' | 'rows';
  children: (row: T) => ReactNode;
}) {
  return (
    <AdminRows query={query} empty={empty}>
      {(rows) => {
        const items = rows.map((row) => <li key={rowKey(row)}>{children(row)}</li>);
        return variant === 'cards' ? <ol className="admin-list">{items}</ol> : <ul className="admin-rows user-list">{items}</ul>;
      }}
    </AdminRows>
  );
}

/** A column heading; `num` right-aligns an amount's column. */
export type AdminColumn = string | { label: string; num?: boolean };

/** A back-office table: scrolls sideways on a phone, one heading a column, `children` its rows. */
export function AdminTable({ columns, labelledBy, children }: { columns: AdminColumn[]; labelledBy?: string; children: ReactNode }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            {columns.map((column) => {
              const { label, num } = typeof column === 'string' ? { label: column, num: false } : column;
              return (
                <th key={label} scope="col" className={num ? 'num' : undefined}>
                  {label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
