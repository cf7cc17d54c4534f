import type { z } from 'zod';
import type { Access } from '../../../core/accounts/plans.ts';
import type { Principal } from '../../../core/keys/model.ts';
import type { AppServices } from '../../services.ts';

/** What a tool call knows about its caller and its request (the server is built per request). */
export interface ToolCall {
  services: AppServices;
  principal: Principal;
  /** Aborted when the client goes away or the call passes its time limit. */
  signal: AbortSignal;
}

/**
 * One MCP tool: its name, what it needs from the caller's plan (the same `Access` a REST route
 * declares), a zod input schema, a zod output schema, and a thin call into the core.
 */
export interface McpTool<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  access: Access;
  /**
   * The REST parameters its use case may name in an error, and the argument each is here (the core
   * says `Parameter 'q'`; an agent sent `query`). Errors name the argument (errors.ts).
   */
  restNames?: Readonly<Record<string, string>>;
  input: z.ZodObject<I>;
  output: z.ZodObject<z.ZodRawShape>;
  run(args: z.infer<z.ZodObject<I>>, call: ToolCall): Promise<Record<string, unknown>>;
}

/** Erases a tool's argument type so tools of different shapes fit one list. */
export const defineTool = <I extends z.ZodRawShape>(tool: McpTool<I>): McpTool => tool as unknown as McpTool;
