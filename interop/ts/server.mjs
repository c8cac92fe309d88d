// A TypeScript SDK MCP server for Herald's interop tests: stdio by default, or Streamable HTTP
// on 127.0.0.1 with --http PORT (0 picks a free port; the chosen one is printed to stderr as
// "listening on PORT"). Its tools exercise the notification channel, including a hostile one
// that sends forged, duplicate, regressing and late progress.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
const allServers = new Set();

function build() {
  const server = new McpServer(
    { name: 'ts-peer', version: '1.0.0' },
    { capabilities: { logging: {}, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } } },
  );
  const subscribed = new Set();
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => { subscribed.add(req.params.uri); return {}; });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => { subscribed.delete(req.params.uri); return {}; });

  const progress = (extra, p) => {
    const token = extra._meta?.progressToken;
    if (token === undefined) return Promise.resolve();
    return extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } });
  };

  server.registerTool('echo', { description: 'Returns the text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));

  server.registerTool('slow', { description: 'Steps with progress; stops when cancelled',
    inputSchema: { steps: z.number().int().default(10), delayMs: z.number().int().default(100) } },
    async ({ steps, delayMs }, extra) => {
      for (let i = 1; i <= steps; i++) {
        if (extra.signal.aborted) throw new Error('cancelled');
        await sleep(delayMs);
        await progress(extra, { progress: i, total: steps, message: `step ${i} of ${steps}` });
      }
      return { content: [{ type: 'text', text: `completed ${steps} steps` }] };
    });

  server.registerTool('hostile_progress', { description: 'Sends forged, duplicate, regressing and late progress', inputSchema: {} },
    async (_args, extra) => {
      await progress(extra, { progress: 1, total: 10 });
      await progress(extra, { progress: 2, total: 10 });
      await progress(extra, { progress: 2, total: 10 });            // duplicate
      await progress(extra, { progress: 1, total: 10 });            // regressing
      await extra.sendNotification({ method: 'notifications/progress',
        params: { progressToken: 'forged-' + randomUUID(), progress: 10, total: 10 } }); // forged token
      await progress(extra, { progress: 10, total: 10, message: 'says done early' }); // progress == total
      await sleep(200);                                              // ...but the work is not done
      const token = extra._meta?.progressToken;
      setTimeout(() => {                                             // late: after the response
        if (token !== undefined) {
          extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 11, total: 10 } })
            .catch(() => {});
        }
      }, 50);
      return { content: [{ type: 'text', text: 'finished for real' }] };
    });

  server.registerTool('indeterminate', { description: 'Progress without a total', inputSchema: { count: z.number().int().default(3) } },
    async ({ count }, extra) => {
      for (let i = 1; i <= count; i++) await progress(extra, { progress: i, message: `item ${i}` });
      return { content: [{ type: 'text', text: 'done' }] };
    });

  server.registerTool('emit_logs', { description: 'Sends log messages',
    inputSchema: { count: z.number().int().default(3), level: z.string().default('info') } },
    async ({ count, level }, extra) => {
      for (let i = 1; i <= count; i++) {
        await server.server.sendLoggingMessage({ level, logger: 'ts', data: `log message ${i} of ${count}` }, extra.sessionId);
      }
      return { content: [{ type: 'text', text: `sent ${count}` }] };
    });

  let dummies = 0;
  server.registerTool('touch', { description: 'Adds a tool so tools/list_changed goes out', inputSchema: {} },
    async () => {
      dummies++;
      server.registerTool(`dummy_${dummies}`, { description: 'dummy', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'dummy' }] }));
      return { content: [{ type: 'text', text: 'touched tools' }] };
    });

  server.registerResource('counter', 'demo://counter', { description: 'A counter', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: String(counter) }] }));

  server.registerTool('update_resource', { description: 'Increments demo://counter', inputSchema: {} },
    async () => {
      counter++;
      for (const s of allServers) {
        if (s.subscribed.has('demo://counter')) await s.server.server.sendResourceUpdated({ uri: 'demo://counter' });
      }
      return { content: [{ type: 'text', text: `counter is ${counter}` }] };
    });

  server.registerTool('ask_sampling', { description: 'Asks the client to sample', inputSchema: {} },
    async () => {
      const r = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hello?' } }], maxTokens: 10 });
      return { content: [{ type: 'text', text: `model said: ${r.content.text}` }] };
    });

  server.registerTool('ask_elicitation', { description: 'Asks the client for input', inputSchema: {} },
    async () => {
      const r = await server.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object',
        properties: { name: { type: 'string' }, color: { type: 'string', default: 'blue' } }, required: ['name'] } });
      return { content: [{ type: 'text', text: `${r.action}: ${JSON.stringify(r.content ?? {})}` }] };
    });

  server.registerTool('ask_roots', { description: 'Lists the client roots', inputSchema: {} },
    async () => {
      const r = await server.server.listRoots();
      return { content: [{ type: 'text', text: r.roots.map((x) => x.uri).join(',') }] };
    });

  const entry = { server, subscribed };
  allServers.add(entry);
  return entry;
}


const args = process.argv.slice(2);
if (args[0] === '--http') {
  const port = Number(args[1] ?? 0);
  const transports = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const sid = req.headers['mcp-session-id'];
    let transport = sid ? transports.get(sid) : undefined;
    if (!transport) {
      if (sid || req.method !== 'POST') { res.writeHead(404).end(); return; }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => { if (transport.sessionId) transports.delete(transport.sessionId); };
      await build().server.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(port, '127.0.0.1', () => {
    process.stderr.write(`listening on ${httpServer.address().port}\n`);
  });
} else {
  await build().server.connect(new StdioServerTransport());
}
