import { defineEndpointSuite } from './endpoint-suite.ts';
import { VARIANT_B } from './variant-b.ts';

defineEndpointSuite(VARIANT_B, 'inject');
