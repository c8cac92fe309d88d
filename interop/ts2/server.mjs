// A TypeScript SDK v2 MCP server (the 2026-07-28 era, with the SDK's own 2025 fallback) for
// Herald's interop tests: stdio by default (serveStdio), or Streamable HTTP on 127.0.0.1 with
// --http PORT (createMcpHandler; 0 picks a free port, printed to stderr as "listening on PORT").
// Its catalog mirrors names from Herald's demo fixture (docs/fixture.md) so that one client
// script drives either server: echo, slow (progress), test_elicitation (input_required: MRTR in
// 2026, the SDK's shim pushes elicitation/create to a 2025 client), touch (a list change),
// update_resource + demo://counter (a resource update), the prompt test_simple_prompt.
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import http from 'node:http';
import { z } from 'zod';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
let dummies = 0;
// How a change reaches listeners: on HTTP through the handler's notifier (every instance is
// per request), on stdio through the one pinned instance (serveStdio routes it to the listen stream).
let notifier;

function build({ era }) {
  const server = new McpServer({ name: 'ts2-peer', version: '2.4.0' },
    { capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true }, prompts: { listChanged: true } } });

  const progress = (ctx, p) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token === undefined) return Promise.resolve();
    return ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } });
  };

  server.registerTool('echo', { description: 'Returns the text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));

  server.registerTool('era', { description: 'Names the era this request was served in', inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: era }] }));

  server.registerTool('slow', { description: 'Steps with progress; stops when cancelled',
    inputSchema: z.object({ steps: z.number().int().default(10), delayMs: z.number().int().default(100) }) },
    async ({ steps, delayMs }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        if (ctx.mcpReq.signal.aborted) throw new Error('cancelled');
        await sleep(delayMs);
        await progress(ctx, { progress: i, total: steps, message: `step ${i} of ${steps}` });
      }
      return { content: [{ type: 'text', text: `completed ${steps} steps` }] };
    });

  const who = { type: 'object', properties: { username: { type: 'string' }, email: { type: 'string' } }, required: ['username'] };
  server.registerTool('test_elicitation', { description: 'Asks the client who it is (input_required)',
    inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user');
      if (answer === undefined) {
        return inputRequired({ inputRequests: { user: inputRequired.elicit({ message, requestedSchema: who }) } });
      }
      return { content: [{ type: 'text', text: `User response: action=accept, content=${JSON.stringify(answer)}` }] };
    });

  server.registerTool('touch', { description: 'Adds a dummy tool so tools/list_changed goes out',
    inputSchema: z.object({ area: z.enum(['tools']).default('tools') }) },
    async () => {
      dummies++;
      if (notifier) notifier.toolsChanged();
      else server.registerTool(`dummy_${dummies}`, { description: 'dummy' }, async () => ({ content: [{ type: 'text', text: 'dummy' }] }));
      return { content: [{ type: 'text', text: 'touched tools' }] };
    });
  for (let i = 1; i <= dummies; i++) {
    server.registerTool(`dummy_${i}`, { description: 'dummy' }, async () => ({ content: [{ type: 'text', text: 'dummy' }] }));
  }

  server.registerResource('counter', 'demo://counter', { description: 'A counter', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: String(counter) }] }));

  server.registerTool('update_resource', { description: 'Increments demo://counter',
    inputSchema: z.object({ uri: z.string().default('demo://counter') }) },
    async ({ uri }) => {
      counter++;
      if (notifier) notifier.resourceUpdated(uri);
      else await server.server.sendResourceUpdated({ uri });
      return { content: [{ type: 'text', text: `counter is ${counter}` }] };
    });

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' },
    async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }));
  return server;
}

// node:http in front of the web-standard handler: loopback only, a fresh Request per exchange,
// the Response body streamed back as it is written (SSE), the exchange aborted when the peer goes.
function serveHttp(port) {
  const handler = createMcpHandler(build, { onerror: (e) => process.stderr.write(`[ts2] ${e?.message ?? e}\n`) });
  notifier = handler.notify;
  const httpServer = http.createServer(async (req, res) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
      const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, signal: abort.signal });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.flushHeaders();
      if (response.body) {
        for await (const chunk of response.body) res.write(chunk);
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  httpServer.listen(port, '127.0.0.1', () => process.stderr.write(`listening on ${httpServer.address().port}\n`));
}

const args = process.argv.slice(2);
if (args[0] === '--http') serveHttp(Number(args[1] ?? 0));
else serveStdio(build, { onerror: (e) => process.stderr.write(`[ts2] ${e?.message ?? e}\n`) });
