import type { RecordWriter } from '../../core/import/write-records.ts';
import type { BatchStore, CoaStore } from '../../core/ports.ts';
import type { StoreThread } from './store-thread-host.ts';

/**
 * The ports the CoA verifier writes and reads through (core/coa/verify-coa.ts), each call run by
 * the store thread on its own connection. The same stores' code as on the main thread: only where
 * it runs differs.
 */
export function threadedCoaPorts(t: StoreThread): {
  coa: CoaStore;
  batches: Pick<BatchStore, 'findByKey'>;
  writer: RecordWriter;
} {
  return {
    coa: {
      directory: () => t.call('coa', 'directory'),
      findUpload: (...a) => t.call('coa', 'findUpload', ...a),
      findExtraction: (...a) => t.call('coa', 'findExtraction', ...a),
      insert: (...a) => t.call('coa', 'insert', ...a),
      replace: (...a) => t.call('coa', 'replace', ...a),
      openSubmissions: (...a) => t.call('coa', 'openSubmissions', ...a),
      get: (...a) => t.call('coa', 'get', ...a),
      list: (...a) => t.call('coa', 'list', ...a),
    },
    batches: { findByKey: (...a) => t.call('batches', 'findByKey', ...a) },
    writer: {
      existingKeys: (...a) => t.call('imports', 'existingKeys', ...a),
      applyWithResult: (batch, opts) => {
        // An operator's decision log builds its entries with functions, which cannot cross to the
        // thread: those writes stay on the main thread's own writer (the Operator's).
        if (opts.log)
          return Promise.reject(new Error('a write with a decision log cannot run on the store thread'));
        return t.call('imports', 'applyWithResult', batch, opts);
      },
    },
  };
}
