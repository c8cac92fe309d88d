// A TypeScript SDK MCP client for Herald's interop tests. Usage:
//   node client.mjs -- <server command ...>     (stdio)
//   node client.mjs http://127.0.0.1:PORT/mcp   (Streamable HTTP)
// Runs a fixed script against Herald's demo fixture and prints one JSON object with what it saw.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema,
  LoggingMessageNotificationSchema, PromptListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const transport = argv[0] === '--'
  ? new StdioClientTransport({ command: argv[1], args: argv.slice(2), stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(argv[0]));

const seen = { logs: [], listChanged: 0, promptsChanged: 0, updates: [], progress: [], errors: [] };
const client = new Client({ name: 'ts-interop-client', version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { seen.logs.push(n.params); });
client.setNotificationHandler(ToolListChangedNotificationSchema, () => { seen.listChanged++; });
client.setNotificationHandler(PromptListChangedNotificationSchema, () => { seen.promptsChanged++; });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { seen.updates.push(n.params.uri); });
client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
  role: 'assistant', model: 'ts-model', stopReason: 'endTurn',
  content: { type: 'text', text: `echo of ${req.params.messages[0].content.text}` },
}));
client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { username: 'ts-user', email: 'ts@example.com' } }));
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///ts-root', name: 'ts' }] }));

// Waits for a condition that a notification handler makes true (no fixed sleeps); fails after 10 s.
const until = async (condition, what) => {
  for (const deadline = Date.now() + 10_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
// What reached the SDK's transport, in arrival order, before the SDK dispatches it. The SDK (1.32)
// runs notification handlers in a microtask but settles a response synchronously, dropping the
// request's progress handler; so `onprogress` misses a progress notification that came in the same
// read as the response (docs/known-issues.md, "Peer limitations"). This records what Herald sent.
const wire = [];
const tap = () => {
  const inner = transport.onmessage;
  transport.onmessage = (m, extra) => {
    if (m.method === 'notifications/progress') wire.push({ progress: m.params.progress });
    else if (m.id !== undefined && ('result' in m || 'error' in m)) wire.push({ response: m.id });
    inner?.(m, extra);
  };
};
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
try {
  await client.connect(transport);
  tap();
  seen.server = client.getServerVersion();
  seen.capabilities = client.getServerCapabilities();
  seen.tools = (await client.listTools()).tools.map((t) => t.name).sort();

  const before = wire.length;
  const slow = await client.callTool({ name: 'slow', arguments: { steps: 5, delayMs: 20 } }, undefined,
    { onprogress: (p) => seen.progress.push(p) });
  seen.slowWire = wire.slice(before);
  seen.slow = text(slow);
  // Steps far shorter than Herald's 50 ms progress cadence: the last value is the one flushed when
  // the handler returns, so this checks at the transport that the flush precedes the response.
  const beforeFlush = wire.length;
  await client.callTool({ name: 'slow', arguments: { steps: 5, delayMs: 1 } }, undefined, { onprogress: () => {} });
  seen.flushWire = wire.slice(beforeFlush);

  await client.setLoggingLevel('info');
  seen.emitLogs = text(await client.callTool({ name: 'emit_logs', arguments: { count: 2, level: 'info' } }));
  await client.callTool({ name: 'emit_logs', arguments: { count: 2, level: 'debug' } });

  await client.subscribeResource({ uri: 'demo://counter' });
  await client.callTool({ name: 'update_resource', arguments: {} });
  seen.counter = (await client.readResource({ uri: 'demo://counter' })).contents[0].text;

  await client.callTool({ name: 'touch', arguments: { area: 'tools' } });
  await until(() => seen.listChanged > 0, 'tools/list_changed arrived');
  seen.toolsAfterTouch = (await client.listTools()).tools.length;

  const abort = new AbortController();
  let steps = 0;
  const cancelled = client.callTool({ name: 'slow', arguments: { steps: 200, delayMs: 20 } }, undefined,
    { signal: abort.signal, onprogress: () => { steps++; } });
  await until(() => steps > 0, 'the call to cancel is running');
  abort.abort('ts client cancels');
  try { await cancelled; seen.cancelled = false; } catch { seen.cancelled = true; }
  await client.ping();
  seen.afterCancel = text(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }));

  seen.sampling = text(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello from herald' } }));
  seen.elicitation = text(await client.callTool({ name: 'test_elicitation', arguments: { message: 'who are you?' } }));
  // A marker instead of a pause: prompts/list_changed goes out after the same debounce as the tools
  // one, so once it is here, a second tools/list_changed or a stray update would be here too.
  await client.callTool({ name: 'touch', arguments: { area: 'prompts' } });
  await until(() => seen.promptsChanged > 0, 'prompts/list_changed arrived');
} catch (e) {
  seen.errors.push(String(e?.message ?? e));
} finally {
  process.stdout.write(JSON.stringify(seen) + '\n');
  await client.close().catch(() => {});
}
