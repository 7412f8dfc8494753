// `node dist/mcp.js`: the compute tools as an MCP server over stdio, for VS Code (through the
// extension's definition provider) and any other MCP client. Configured from the environment only
// (see config.ts); write and destructive tools are listed only with COMPUTE_TOOLKIT_ALLOW_WRITES=1, and
// each call of one is confirmed by the user first (writeConfirmation.ts).
// stdout carries the protocol; every human-readable line goes to stderr, never with a secret.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { readFile, stat } from 'node:fs/promises';
import { createComputeClient } from '../core/compute/client';
import { realPathInside } from '../core/localLinks';
import { confinedSpecFiles } from '../core/specs/fileAccess';
import { NasSessions } from '../core/nas/sessions';
import { VolumeService } from '../core/nas/volumeService';
import { nasToolAccess } from '../core/nas/toolAccess';
import { ConfigError } from '../core/errors';
import { Redactor, redactingLogger } from '../core/log';
import { findTool, toolsFor, type ToolDefinition } from '../core/tools/index';
import { confirmTool, inputSchemaOf, runTool } from '../core/tools/run';
import { decideWrite } from './writeConfirmation';
import { McpConfigError, readConfig, type McpConfig } from './config';

export const SERVER_NAME = 'compute-toolkit';
export const SERVER_VERSION = '0.1.0';

/** The MCP form of a tool definition: schema, annotations from its effect. */
export function mcpTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.displayName,
    description: tool.modelDescription,
    inputSchema: inputSchemaOf(tool) as Tool['inputSchema'],
    annotations: {
      title: tool.displayName,
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect === 'destructive',
      idempotentHint: tool.idempotent,
      openWorldHint: true,
    },
  };
}

export function createMcpServer(config: McpConfig, log: (line: string) => void): Server {
  const redactor = new Redactor();
  redactor.setSecrets(config.secrets);
  const client = createComputeClient({
    baseUrl: config.baseUrl,
    credentials: async () => config.credentials,
    logger: redactingLogger({ trace: () => undefined, debug: () => undefined, info: () => undefined, warn: log, error: log }, redactor),
  });
  // One set of SFTP sessions for the NAS tools, opened on first use; files are uploaded from the working folder only.
  let sessions: NasSessions | undefined;
  const nasFiles = nasToolAccess(() => (sessions ??= new NasSessions(new VolumeService(() => client))), [process.cwd()]);
  const visible = toolsFor(config.allowWrites);
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {} } });
  const profile = { label: new URL(config.baseUrl).host, environment: 'mcp' };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible.map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findTool(request.params.name);
    if (!tool || !visible.includes(tool)) {
      const hidden = tool !== undefined;
      return {
        isError: true,
        content: [
          {
            type: 'text' as const,
            text: hidden
              ? `The tool ${tool.name} changes the account (${tool.effect}) and this server was started without COMPUTE_TOOLKIT_ALLOW_WRITES=1. Ask the user to enable writes in the server configuration.`
              : `Unknown tool "${request.params.name.slice(0, 64)}". Call tools/list for the available tools.`,
          },
        ],
      };
    }
    // Spec files under the server's working folder; no secret store here, so secret references stay unresolved.
    // The folder is trusted: the user started the server in it (writes need COMPUTE_TOOLKIT_ALLOW_WRITES=1).
    const specFiles = confinedSpecFiles([process.cwd()], { size: async (file) => (await stat(file)).size, read: (file) => readFile(file), insideOnDisk: async (file) => (await realPathInside([process.cwd()], file)) !== undefined }, async () => undefined, true);
    const context = { client, profile, signal: extra.signal, secrets: config.secrets, specFiles, nasFiles };
    const input = request.params.arguments ?? {};
    let note: string | undefined;
    if (tool.effect !== 'read') {
      // Input the tool refuses sends nothing (runTool reports it); anything else is confirmed call by call.
      const confirmation = (await confirmTool(tool, input, context)) ?? (tool.confirm ? undefined : { title: `${tool.displayName}?`, message: `Input: ${JSON.stringify(input).slice(0, 500)}` });
      if (confirmation) {
        const decision = await decideWrite(server, confirmation, config.writesUnconfirmed, extra.signal);
        if (!decision.send) return { isError: true, content: [{ type: 'text' as const, text: decision.text }] };
        note = decision.note;
      }
    }
    const result = await runTool(tool, input, context);
    return { isError: result.isError, content: [...(note ? [{ type: 'text' as const, text: note }] : []), { type: 'text' as const, text: result.text }] };
  });
  return server;
}

/**
 * Every startup failure is one line on stderr naming the variable (never its value) and exit code 2:
 * MCP clients show stderr to the user, and a stack with minified source says nothing to them.
 */
async function main(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`compute-toolkit-mcp: ${line}\n`);
  let config: McpConfig;
  try {
    config = readConfig(process.env);
  } catch (error) {
    return startupFailed(error instanceof McpConfigError ? error.message : 'Compute Toolkit MCP server: could not read the configuration.');
  }
  try {
    const server = createMcpServer(config, log);
    await server.connect(new StdioServerTransport());
  } catch (error) {
    // The configuration passed its checks; a client refusing it names the problem without the value.
    const reason = error instanceof ConfigError ? error.message.replace(/[\r\n]+/g, ' ') : `${error instanceof Error ? error.name : 'error'} while starting`;
    return startupFailed(`Compute Toolkit MCP server: could not start: ${reason}`);
  }
  log(`ready: ${config.credentials.mode} mode, ${config.baseUrl}, ${config.allowWrites ? 'all tools' : 'read tools only (COMPUTE_TOOLKIT_ALLOW_WRITES=1 lists the rest)'}`);
}

function startupFailed(line: string): void {
  process.stderr.write(`${line}\n`);
  process.exitCode = 2;
}

if (require.main === module) {
  main().catch(() => startupFailed('Compute Toolkit MCP server: could not start.'));
}
