import type { CachedBody } from './conditional.ts';

/** A cached body with what the fast path writes next to it. */
export interface CachedResponse extends CachedBody {
  /** `content-length` as header text, computed once per body rather than per request. */
  lengthText: string;
}

interface Entry extends CachedResponse {
  /** The data version it was rendered at, or for a catalog key the catalog's content version. */
  version: number;
  /** Unix ms after which the body may be wrong (time-dependent fields such as ageDays, stale). */
  validUntil: number;
}

/**
 * What the catalog read model says about its content (core/catalog/read-model.ts): the content
 * version of the snapshot at a data version, when that snapshot is built.
 */
export interface CatalogVersions {
  contentVersionAt(dataVersion: number): number | undefined;
}

/**
 * Keys of bodies rendered from the catalog snapshot alone (cache-keys.ts marks them): the vendor
 * lists, the peptide list and rankings, search. Nothing else goes into them (no store read, no
 * clock, no data-state field but the snapshot's own).
 */
export const CATALOG_KEY_PREFIX = 'catalog|';
export const isCatalogKey = (key: string): boolean => key.startsWith(CATALOG_KEY_PREFIX);

/**
 * Serialized bodies per (variant, route, parameters), valid for one data version and, for bodies
 * that depend on the clock, until the next moment one of their fields would change. Serializing
 * per request costs ~3× the throughput of sending bytes (DESIGN.md §3); this is the fix.
 *
 * A body under a catalog key is rendered from the catalog snapshot alone, so it stays valid as long
 * as the snapshot's content does: across writes that change nothing the catalog holds (a pending
 * CoA submission, a review reply), which still move the data version. Such a body is served for a
 * data version only once the snapshot of that version is built and has the body's content version;
 * before that it is kept but not served (the route builds the snapshot, then finds it valid).
 *
 * Bounded in entries and in bytes (keys and bodies): when full it is cleared, which is cheap and
 * only costs a re-serialization. Only admitted requests fill it (the routes run past the guard).
 */
export class ResponseCache {
  /** Bodies valid for one data version: dropped at once when it moves (dataChanged). */
  private readonly data = new Map<string, Entry>();
  /** Bodies valid for one catalog content version. */
  private readonly catalog = new Map<string, Entry>();
  /** The content version of the bodies `catalog` holds (older content is never current again). */
  private catalogVersion = -1;
  private dataBytes = 0;
  private catalogBytes = 0;
  /**
   * Lookups of the routes (get) that found a servable body, and that did not; the fast path
   * counts its own hits (it uses peek, and its misses go on to a route, which counts them).
   */
  hits = 0;
  misses = 0;

  constructor(
    /** null: no catalog content versions known, so catalog keys are kept per data version. */
    private readonly versions: CatalogVersions | null = null,
    private readonly maxEntries = 20_000,
    /** Default 64 MiB: the demo and scale datasets' whole read surface is a few MiB. */
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string, dataVersion: number, nowMs: number): CachedResponse | undefined {
    const found = this.peek(key, dataVersion, nowMs);
    if (found === undefined) this.misses++;
    else this.hits++;
    return found;
  }

  /** As get(), without counting the lookup. */
  peek(key: string, dataVersion: number, nowMs: number): CachedResponse | undefined {
    const byCatalog = this.versions !== null && isCatalogKey(key);
    const map = byCatalog ? this.catalog : this.data;
    const e = map.get(key);
    if (!e) return undefined;
    const current = byCatalog ? this.versions!.contentVersionAt(dataVersion) : dataVersion;
    // Not known yet whether this data version changed the catalog: not served, not dropped.
    if (current === undefined) return undefined;
    if (e.version !== current || nowMs >= e.validUntil) {
      map.delete(key);
      this.shrink(byCatalog, key.length + e.body.length);
      return undefined;
    }
    return e;
  }

  /**
   * Keeps `body` as the answer under `key` at data version `version` (the snapshot's version for a
   * body rendered from a snapshot). Returns the body, kept or not.
   */
  set(key: string, version: number, body: CachedBody, validUntil = Number.POSITIVE_INFINITY): CachedBody {
    const size = key.length + body.body.length;
    // A body larger than the whole budget is served, not kept.
    if (size > this.maxBytes) return body;
    const byCatalog = this.versions !== null && isCatalogKey(key);
    let tag = version;
    if (byCatalog) {
      const content = this.versions!.contentVersionAt(version);
      // The read model has moved past that snapshot: which content it had is no longer known.
      if (content === undefined || content < this.catalogVersion) return body;
      if (content > this.catalogVersion) {
        // New content: every body of the old one is wrong from now on.
        this.catalog.clear();
        this.catalogBytes = 0;
        this.catalogVersion = content;
      }
      tag = content;
    }
    const map = byCatalog ? this.catalog : this.data;
    const previous = map.get(key);
    if (previous) {
      map.delete(key);
      this.shrink(byCatalog, key.length + previous.body.length);
    }
    if (this.data.size + this.catalog.size >= this.maxEntries || this.byteSize + size > this.maxBytes) {
      this.clear();
      if (byCatalog) this.catalogVersion = tag;
    }
    map.set(key, {
      body: body.body,
      etag: body.etag,
      lengthText: String(body.body.length),
      version: tag,
      validUntil,
    });
    if (byCatalog) this.catalogBytes += size;
    else this.dataBytes += size;
    return body;
  }

  /**
   * The data version moved: every body tied to it is dropped now (memory back at once); bodies
   * under catalog keys wait for the snapshot to say whether their content is still current.
   */
  dataChanged(): void {
    this.data.clear();
    this.dataBytes = 0;
  }

  clear(): void {
    this.data.clear();
    this.catalog.clear();
    this.dataBytes = 0;
    this.catalogBytes = 0;
  }

  private shrink(byCatalog: boolean, size: number): void {
    if (byCatalog) this.catalogBytes -= size;
    else this.dataBytes -= size;
  }

  get size(): number {
    return this.data.size + this.catalog.size;
  }

  /** Bytes held (keys and bodies). */
  get byteSize(): number {
    return this.dataBytes + this.catalogBytes;
  }
}
