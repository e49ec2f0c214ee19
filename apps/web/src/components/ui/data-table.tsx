"use client";

import {
  createColumnHelper,
  FlexRender,
  type RowData,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";

const features = tableFeatures({});

/** Column definitions for `DataTable`, typed by the row; build lists with `.columns([...])`. */
export function columnHelper<T extends RowData>() {
  return createColumnHelper<typeof features, T>();
}

/** A column of any value type, as `columnHelper<T>().columns([...])` returns them. */
export type TColumn<T extends RowData> = ReturnType<
  ReturnType<typeof columnHelper<T>>["columns"]
>[number];

/** Read by the header and cell renderers below: right-aligned numbers, nowrap, widths. */
function classOf(meta: unknown): string | undefined {
  return typeof meta === "object" && meta !== null && "className" in meta
    ? String(meta.className)
    : undefined;
}

/** The header's text, repeated on each cell as the label of a phone's card (CSS `attr()`). */
function labelOf(header: unknown): string | undefined {
  return typeof header === "string" && header !== "" ? header : undefined;
}

/**
 * The console's tables: TanStack Table for the column model and rendering, with server-side
 * filtering and keyset paging (the table never sorts or pages by itself: the database does, on
 * indexes). A row with `href` is a link to its detail page, by click or keyboard. On a phone every
 * row becomes a card of label/value lines (`.table-cards`, responsive.css) instead of a table
 * wider than the screen.
 */
export function DataTable<T extends RowData>({
  columns,
  data,
  rowId,
  rowHref,
  empty,
  testId,
  dense,
}: {
  columns: TColumn<T>[];
  data: T[];
  rowId: (row: T) => string;
  rowHref?: (row: T) => string;
  empty: ReactNode;
  testId?: string;
  dense?: boolean;
}) {
  const router = useRouter();
  const table = useTable<typeof features, T>({
    features,
    columns,
    data,
    getRowId: (row) => rowId(row),
  });
  if (data.length === 0) return <>{empty}</>;
  return (
    // Focusable: a table wider than its column scrolls inside this box, which keyboard users
    // must be able to scroll too (axe scrollable-region-focusable).
    <div
      className="table-wrap"
      tabIndex={0}
      role="region"
      aria-label={testId ? testId.replace(/-/g, " ") : "table"}
    >
      <table
        className="table table-cards"
        data-testid={testId}
        data-dense={dense ? "true" : undefined}
      >
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className={classOf(header.column.columnDef.meta)}>
                  {header.isPlaceholder ? null : <FlexRender header={header} />}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => {
            const href = rowHref?.(row.original);
            return (
              <tr
                key={row.id}
                data-row-id={row.id}
                className={href ? "row-link" : undefined}
                onClick={
                  href
                    ? (event) => {
                        // Let inner links and buttons do their own thing.
                        if ((event.target as HTMLElement).closest("a, button, select, input"))
                          return;
                        router.push(href);
                      }
                    : undefined
                }
              >
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={classOf(cell.column.columnDef.meta)}
                    data-label={labelOf(cell.column.columnDef.header)}
                  >
                    <FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
