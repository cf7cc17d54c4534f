import { defineEndpointSuite } from './endpoint-suite.ts';
import { VARIANT_A } from './variant-a.ts';

defineEndpointSuite(VARIANT_A, 'socket');
