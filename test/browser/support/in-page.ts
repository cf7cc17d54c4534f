/*
 * Functions that run inside the page (page.evaluate, addInitScript), not in Node. The project
 * compiles without the DOM library, so the few browser globals they use are declared here, for this
 * module only; playwright serialises each function and runs it where these exist.
 */

interface PageElement {
  tagName: string;
  className: unknown;
  parentElement: PageElement | null;
  getBoundingClientRect(): { right: number };
}

interface ViolationEvent {
  effectiveDirective: string;
  blockedURI: string;
  documentURI: string;
}

declare const document: {
  addEventListener(type: 'securitypolicyviolation', listener: (e: ViolationEvent) => void): void;
  styleSheets: Iterable<{ href: string | null; cssRules: { length: number } }>;
  documentElement: { clientWidth: number; scrollWidth: number };
  body: PageElement & { querySelectorAll(selector: string): Iterable<PageElement> };
  createTreeWalker(root: PageElement, whatToShow: number): { nextNode(): TextNode | null };
  createRange(): { selectNodeContents(node: TextNode): void; getBoundingClientRect(): { right: number } };
};
interface TextNode {
  textContent: string | null;
  parentElement: PageElement | null;
}

declare function getComputedStyle(el: PageElement): { overflowX: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };

/** Every document of a context reports its CSP violations to the console (browser.ts reads them). */
export function reportViolations(): void {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error(
      `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.documentURI}`,
    );
  });
}

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs the axe-core injected into the page over the whole document. */
export async function runAxe(): Promise<AxeFinding[]> {
  interface AxeResult {
    violations: {
      id: string;
      impact?: string | null;
      help: string;
      nodes: { target: unknown[] }[];
    }[];
  }
  const axe = (globalThis as unknown as { axe: { run(context: unknown): Promise<AxeResult> } }).axe;
  const result = await axe.run(document);
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
  }));
}

export interface Look {
  /** pages.css loaded and applied. */
  styled: boolean;
  /** The viewport's width, and how wide the page is. */
  vw: number;
  wide: number;
  /** The elements that stick out of the viewport outside any box that scrolls or clips. */
  culprits: string[];
}

/** What a look at the page would catch: no stylesheet, or something wider than the screen. */
export function lookAtPage(): Look {
  const styled = [...document.styleSheets].some(
    (s) => (s.href ?? '').endsWith('/assets/pages.css') && s.cssRules.length > 0,
  );
  const vw = document.documentElement.clientWidth;
  const wide = document.documentElement.scrollWidth;
  const culprits: string[] = [];
  // Inside a box that scrolls or clips, overflow is that box's business, not the page's.
  const held = (from: PageElement | null): boolean => {
    for (let p = from; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  const nameOf = (el: PageElement): string => {
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
    return `${el.tagName.toLowerCase()}${cls}`;
  };
  if (wide > vw) {
    for (const el of document.body.querySelectorAll('*')) {
      const right = el.getBoundingClientRect().right;
      if (right <= vw || held(el.parentElement)) continue;
      culprits.push(`${nameOf(el)} (right edge ${Math.round(right)} px)`);
      if (culprits.length >= 5) break;
    }
    // Text that does not wrap (a long id in a heading) sticks out of a box that does not.
    // 4: NodeFilter.SHOW_TEXT (a literal: the function runs in the page, without this module).
    const walker = document.createTreeWalker(document.body, 4);
    const range = document.createRange();
    for (let n = walker.nextNode(); n && culprits.length < 10; n = walker.nextNode()) {
      range.selectNodeContents(n);
      const right = range.getBoundingClientRect().right;
      if (right <= vw || held(n.parentElement)) continue;
      const where = n.parentElement ? nameOf(n.parentElement) : 'body';
      culprits.push(
        `text "${(n.textContent ?? '').trim().slice(0, 60)}" in ${where} (right edge ${Math.round(right)} px)`,
      );
    }
  }
  return { styled, vw, wide, culprits };
}

/** What the page's copy button put on the clipboard (the context must be granted clipboard-read). */
export function readClipboard(): Promise<string> {
  return navigator.clipboard.readText();
}
