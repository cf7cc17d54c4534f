/** One Variant A page: `{data, total, page}`. */
export interface NumberedPage<T> {
  data: T[];
  total: number;
}

/** One Variant B page of vendors, as found under `data`. */
export interface OffsetPage<T> {
  items: T[];
  total: number;
  /** The page size the server applied (it clamps what was asked). */
  limit: number;
  offset: number;
}

/**
 * Every item of a page/per_page listing (Variant A), page after page, until `total` is reached
 * or a page comes back empty (the list shrank while it was read).
 */
export async function* eachNumberedPage<T>(
  fetchPage: (page: number) => Promise<NumberedPage<T>>,
  perPage: number,
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const p = await fetchPage(page);
    yield* p.data;
    if (p.data.length === 0 || page * perPage >= p.total) return;
  }
}

/**
 * Every item of an offset/limit listing (Variant B). The next offset follows the limit the server
 * applied, not the one asked for, so a clamped page size skips nothing.
 */
export async function* eachOffsetPage<T>(
  fetchPage: (offset: number) => Promise<OffsetPage<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let offset = 0; ; ) {
    const p = await fetchPage(offset);
    yield* p.items;
    offset = p.offset + p.items.length;
    if (p.items.length === 0 || offset >= p.total) return;
  }
}
