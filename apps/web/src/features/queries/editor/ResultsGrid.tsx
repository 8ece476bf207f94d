/**
 * The result grid. A result can be 100,000 rows by 50 columns, five million cells, so
 * only the cells on screen (plus a margin) are in the DOM: TanStack Virtual picks the rows,
 * and the columns are picked here from their offsets, because their widths change as
 * people drag them. One element scrolls both ways; the header row sticks to the top and
 * the row numbers to the left.
 *
 * It stays a real table (rows positioned absolutely, table semantics kept) with
 * aria-rowcount/aria-colcount and per-cell indexes, so assistive technology knows where a
 * cell sits in the whole result, not only among the ones drawn. A header's button sorts
 * (ascending, descending, off; see result-table.ts), its right edge resizes by pointer or
 * arrow keys. Sort and widths last while the columns stay the same, so running the same
 * query again keeps them.
 *
 * A column of market keys (a Kalshi `ticker`, a Polymarket market's `id`; which ones is
 * decided once per result from the statement and the column names, `market-keys.ts`)
 * draws its cells as links to the market's page; every other cell stays plain text.
 */
import type { QueryColumn, Venue } from "@epicenter/contracts";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp } from "lucide-react";
import {
  type KeyboardEvent,
  memo,
  type PointerEvent,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { isNumericType, simplifyType } from "../../../lib/sql-types";
import { formatCell } from "../../../ui/format";
import { MarketLink } from "../../markets/MarketLink";
import { isMarketKey, marketKeyColumns } from "../../markets/market-keys";
import styles from "./ResultsGrid.module.css";
import { estimateColumnWidth, MIN_COLUMN_WIDTH, nextSort, type ResultSort, sortedRowOrder } from "./result-table";

const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 44;
/** Rows drawn above and below the screen, so a fast wheel does not show blank rows. */
const ROW_OVERSCAN = 10;
/** Columns drawn left and right of the screen, for the same reason sideways. */
const COLUMN_OVERSCAN = 2;
/** What one arrow key press on a resize handle adds or takes away. */
const RESIZE_STEP = 16;
const MAX_COLUMN_WIDTH = 2_000;
/** Characters of a cell that fit its width before it is cut (see result-table.ts). */
const CELL_CHAR_PX = 7.5;
const CELL_PADDING_PX = 21;

interface ColumnLayout {
  signature: string;
  widths: number[];
  sort: ResultSort | null;
}

/** Where every column sits, shared by the header and the rows. */
interface ColumnGeometry {
  widths: readonly number[];
  /** Left edge of each column, after the row numbers. */
  offsets: readonly number[];
  totalWidth: number;
  indexWidth: number;
  isNumeric: readonly boolean[];
  /** The venue whose market page a column's values open, or null for a column of other values. */
  marketKeys: readonly (Venue | null)[];
}

function signatureOf(columns: readonly QueryColumn[]): string {
  return columns.map((column) => `${column.name}\u0000${column.type}`).join("\u0001");
}

function layoutFor(
  signature: string,
  columns: readonly QueryColumn[],
  rows: readonly (readonly unknown[])[],
): ColumnLayout {
  return { signature, widths: columns.map((column, index) => estimateColumnWidth(column, index, rows)), sort: null };
}

/** The first and last column that touch [left, right], by binary search over the offsets. */
function visibleColumns(geometry: ColumnGeometry, left: number, right: number): [number, number] {
  const { offsets, widths } = geometry;
  if (offsets.length === 0) return [0, -1];
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((offsets[middle] as number) + (widths[middle] as number) <= left) low = middle + 1;
    else high = middle;
  }
  let last = low;
  while (last < offsets.length - 1 && (offsets[last + 1] as number) < right) last++;
  return [Math.max(0, low - COLUMN_OVERSCAN), Math.min(offsets.length - 1, last + COLUMN_OVERSCAN)];
}

export function ResultsGrid({
  columns,
  rows,
  statement = "",
}: {
  columns: readonly QueryColumn[];
  /** One array of values per row, in column order. */
  rows: readonly (readonly unknown[])[];
  /** The statement that gave the rows: it tells whose keys an `id` column holds. */
  statement?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const signature = signatureOf(columns);
  const [storedLayout, setLayout] = useState(() => layoutFor(signature, columns, rows));
  let layout = storedLayout;
  if (layout.signature !== signature) {
    // Other columns: start over, during render so the stale widths are never drawn.
    layout = layoutFor(signature, columns, rows);
    setLayout(layout);
  }
  const { widths, sort } = layout;
  const [viewport, setViewport] = useState(() => ({ left: 0, width: window.innerWidth }));

  const indexWidth = Math.max(48, String(rows.length).length * CELL_CHAR_PX + CELL_PADDING_PX);
  const marketKeys = useMemo(() => marketKeyColumns(statement, columns), [statement, columns]);
  const geometry = useMemo<ColumnGeometry>(() => {
    const offsets: number[] = [];
    let right = indexWidth;
    for (const width of widths) {
      offsets.push(right);
      right += width;
    }
    return {
      widths,
      offsets,
      totalWidth: right,
      indexWidth,
      isNumeric: columns.map((c) => isNumericType(c.type)),
      marketKeys,
    };
  }, [widths, indexWidth, columns, marketKeys]);

  const sortedColumn = sort ? columns[sort.columnIndex] : undefined;
  const order = useMemo(
    () => (sort && sortedColumn ? sortedRowOrder(rows, sort.columnIndex, sortedColumn.type, sort.direction) : null),
    [rows, sortedColumn, sort],
  );

  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: ROW_OVERSCAN,
  });

  const readViewport = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const left = element.scrollLeft;
    const width = element.clientWidth;
    setViewport((current) => (current.left === left && current.width === width ? current : { left, width }));
  }, []);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    readViewport();
    const observer = new ResizeObserver(readViewport);
    observer.observe(element);
    return () => observer.disconnect();
  }, [readViewport]);

  const [firstColumn, lastColumn] = visibleColumns(
    geometry,
    viewport.left + indexWidth,
    viewport.left + viewport.width,
  );

  const onSort = (columnIndex: number) => {
    setLayout((current) => ({ ...current, sort: nextSort(current.sort, columnIndex) }));
    // A new order is read from its top, as a sorted list is.
    if (scroller.current) scroller.current.scrollTop = 0;
  };
  const onResize = useCallback((columnIndex: number, width: number) => {
    const clamped = Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
    setLayout((current) =>
      current.widths[columnIndex] === clamped
        ? current
        : { ...current, widths: current.widths.map((old, index) => (index === columnIndex ? clamped : old)) },
    );
  }, []);

  const headers = [];
  for (let index = firstColumn; index <= lastColumn; index++) {
    const column = columns[index] as QueryColumn;
    headers.push(
      <HeaderCell
        key={index}
        column={column}
        columnIndex={index}
        left={geometry.offsets[index] as number}
        width={widths[index] as number}
        direction={sort?.columnIndex === index ? sort.direction : null}
        onSort={onSort}
        onResize={onResize}
      />,
    );
  }

  return (
    <div
      ref={scroller}
      className={styles.scroller}
      onScroll={readViewport}
      // A scrolling region must be reachable by keyboard, to scroll it with the arrow keys.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the region scrolls; see above
      tabIndex={0}
    >
      <table
        className={styles.table}
        aria-label="Query results"
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + 1}
        style={{ width: geometry.totalWidth }}
      >
        <thead className={styles.head} style={{ height: HEADER_HEIGHT }}>
          <tr className={styles.headRow} aria-rowindex={1}>
            <th className={styles.corner} style={{ width: indexWidth }} aria-colindex={1} aria-label="Row number" />
            {headers}
          </tr>
        </thead>
        <tbody className={styles.body} style={{ height: rowVirtualizer.getTotalSize() }}>
          {rowVirtualizer.getVirtualItems().map((item) => (
            <GridRow
              key={item.key}
              position={item.index}
              top={item.start}
              row={rows[order ? (order[item.index] as number) : item.index]}
              geometry={geometry}
              firstColumn={firstColumn}
              lastColumn={lastColumn}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HeaderCell({
  column,
  columnIndex,
  left,
  width,
  direction,
  onSort,
  onResize,
}: {
  column: QueryColumn;
  columnIndex: number;
  left: number;
  width: number;
  direction: ResultSort["direction"] | null;
  onSort: (columnIndex: number) => void;
  onResize: (columnIndex: number, width: number) => void;
}) {
  const drag = useRef<{ pointerId: number; startX: number; startWidth: number } | null>(null);
  const [isDragging, setIsDragging] = useState(false);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startWidth: width };
    setIsDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    onResize(columnIndex, current.startWidth + event.clientX - current.startX);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    setIsDragging(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? RESIZE_STEP * 4 : RESIZE_STEP;
    if (event.key === "ArrowRight") onResize(columnIndex, width + step);
    else if (event.key === "ArrowLeft") onResize(columnIndex, width - step);
    else return;
    event.preventDefault();
  };

  const type = simplifyType(column.type);
  const Arrow = direction === "ascending" ? ArrowUp : direction === "descending" ? ArrowDown : null;
  return (
    <th
      className={styles.headerCell}
      style={{ left, width }}
      aria-colindex={columnIndex + 2}
      aria-sort={direction ?? undefined}
    >
      <button
        type="button"
        className={styles.sortButton}
        onClick={() => onSort(columnIndex)}
        title={`Sort by ${column.name} (${column.type})`}
      >
        <span className={styles.headerText}>
          <span className={styles.columnName} data-column-name={column.name}>
            {column.name}
          </span>
          <span className={styles.columnType}>{type}</span>
        </span>
        {Arrow ? <Arrow className={styles.sortIcon} size={14} aria-hidden /> : null}
      </button>
      {/* biome-ignore lint/a11y/useSemanticElements: <hr> cannot be dragged or focused; a focusable separator is the ARIA pattern for a splitter */}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize column ${column.name}`}
        aria-valuemin={MIN_COLUMN_WIDTH}
        aria-valuemax={MAX_COLUMN_WIDTH}
        aria-valuenow={width}
        tabIndex={0}
        className={styles.resizeHandle}
        data-dragging={isDragging || undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onKeyDown={onKeyDown}
      />
    </th>
  );
}

/**
 * One row, memoized: while scrolling down only the rows that come into view render, and
 * the others are skipped until the visible columns or their widths change.
 */
const GridRow = memo(function GridRow({
  position,
  top,
  row,
  geometry,
  firstColumn,
  lastColumn,
}: {
  position: number;
  top: number;
  row: readonly unknown[] | undefined;
  geometry: ColumnGeometry;
  firstColumn: number;
  lastColumn: number;
}) {
  const cells = [];
  for (let index = firstColumn; index <= lastColumn; index++) {
    const value = row?.[index];
    const text = formatCell(value);
    const width = geometry.widths[index] as number;
    const isNull = value === null || value === undefined;
    const venue = geometry.marketKeys[index];
    cells.push(
      <td
        key={index}
        aria-colindex={index + 2}
        className={`${styles.cell}${geometry.isNumeric[index] ? ` ${styles.numeric}` : ""}${isNull ? ` ${styles.null}` : ""}`}
        style={{ left: geometry.offsets[index], width }}
        title={text.length * CELL_CHAR_PX > width - CELL_PADDING_PX ? text : undefined}
      >
        {venue && isMarketKey(value) ? (
          <MarketLink venue={venue} id={value}>
            {text}
          </MarketLink>
        ) : (
          text
        )}
      </td>,
    );
  }
  return (
    <tr
      className={styles.row}
      aria-rowindex={position + 2}
      style={{ transform: `translateY(${top}px)`, width: geometry.totalWidth, height: ROW_HEIGHT }}
    >
      <td className={styles.indexCell} style={{ width: geometry.indexWidth }} aria-colindex={1}>
        {position + 1}
      </td>
      {cells}
    </tr>
  );
});
