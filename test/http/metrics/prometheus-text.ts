import { expect } from 'vitest';

/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const SPECIAL: Record<string, number> = {
  nan: Number.NaN,
  '+inf': Number.POSITIVE_INFINITY,
  inf: Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
};
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;

/**
 * Parses the text format (version 0.0.4) strictly enough to fail on anything Prometheus would
 * refuse: every sample line is `name{labels} value`, labels are quoted and escaped, every sample
 * belongs to a family declared by `# TYPE` before it, and no series appears twice.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      expect(['counter', 'gauge', 'histogram', 'summary', 'untyped'], line).toContain(type);
      expect(types.has(name!), `family ${name} declared twice`).toBe(false);
      types.set(name!, type!);
      continue;
    }
    expect(line.startsWith('#'), `unexpected comment: ${line}`).toBe(false);
    const m = SAMPLE.exec(line);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const [, name, rawLabels, rawValue] = m!;
    const labels: Record<string, string> = {};
    if (rawLabels !== undefined && rawLabels !== '') {
      LABEL.lastIndex = 0;
      let at = 0;
      while (at < rawLabels.length) {
        LABEL.lastIndex = at;
        const l = LABEL.exec(rawLabels);
        expect(l, `bad labels: ${line}`).not.toBeNull();
        labels[l![1]!] = l![2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
        at = LABEL.lastIndex;
      }
    }
    // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client
    // writes "Nan" for an event-loop mean with no sample yet).
    const special = SPECIAL[rawValue!.toLowerCase()];
    const value = special ?? Number(rawValue);
    expect(special === undefined && Number.isNaN(value), `bad value: ${line}`).toBe(false);
    const family = familyOf(name!, types);
    expect(family, `sample before its # TYPE: ${line}`).not.toBeNull();
    const id = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    expect(seen.has(id), `series twice: ${line}`).toBe(false);
    seen.add(id);
    samples.push({ name: name!, labels, value });
  }
  return samples;
}

function familyOf(name: string, types: Map<string, string>): string | null {
  if (types.has(name)) return name;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const type = types.get(base);
    if (type === 'histogram' || type === 'summary') return base;
  }
  return null;
}

/** The value of the one sample named so whose labels include `labels`; 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)} matches more than one series`).toBeLessThan(2);
  return found[0]?.value ?? 0;
}
