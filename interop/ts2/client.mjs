// A TypeScript SDK v2 MCP client for Herald's interop tests. Usage:
//   node client.mjs [--era auto|modern|legacy] -- <server command ...>     (stdio)
//   node client.mjs [--era auto|modern|legacy] http://127.0.0.1:PORT/mcp   (Streamable HTTP)
// --era: auto (default) probes with server/discover and falls back to initialize; modern pins
// 2026-07-28; legacy is the 2025 handshake. Runs a fixed script against a server with the demo
// fixture's names (Herald's `herald serve`, or interop/ts2/server.mjs) and prints one JSON object
// with what it saw.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

let argv = process.argv.slice(2);
let era = 'auto';
if (argv[0] === '--era') { era = argv[1]; argv = argv.slice(2); }
const mode = { auto: 'auto', modern: { pin: '2026-07-28' }, legacy: 'legacy' }[era];
if (mode === undefined) throw new Error(`unknown --era ${era}`);
const transport = argv[0] === '--'
  ? new StdioClientTransport({ command: argv[1], args: argv.slice(2), stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(argv[0]));

const seen = { progress: [], listChanged: 0, updates: [], elicited: [], errors: [] };
const client = new Client({ name: 'ts2-interop-client', version: '2.4.0' }, {
  capabilities: { elicitation: { form: {} }, sampling: {} },
  versionNegotiation: { mode },
  inputRequired: { maxRounds: 3 },
});
client.setNotificationHandler('notifications/tools/list_changed', () => { seen.listChanged++; });
client.setNotificationHandler('notifications/resources/updated', (n) => { seen.updates.push(n.params.uri); });
client.setRequestHandler('elicitation/create', async (req) => {
  seen.elicited.push(req.params.message);
  return { action: 'accept', content: { username: 'ts2-user', email: 'ts2@example.com' } };
});
client.setRequestHandler('sampling/createMessage', async (req) => ({
  role: 'assistant', model: 'ts2-model', stopReason: 'endTurn',
  content: { type: 'text', text: `echo of ${req.params.messages.at(-1).content.text}` },
}));

// Waits for a condition a notification handler makes true (no fixed sleeps); fails after 10 s.
const until = async (condition, what) => {
  for (const deadline = Date.now() + 10_000; !condition();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
// Each step records its own failure so one missing feature does not hide the others.
const step = async (name, fn) => {
  try { await fn(); } catch (e) { seen.errors.push(`${name}: ${String(e?.message ?? e)}`); }
};

try {
  await client.connect(transport);
  seen.era = client.getProtocolEra();
  seen.discovered = client.getDiscoverResult() !== undefined;
  seen.server = client.getServerVersion();
  await step('list', async () => {
    seen.tools = (await client.listTools()).tools.map((t) => t.name).sort();
    seen.prompts = (await client.listPrompts()).prompts.map((p) => p.name).sort();
    seen.resources = (await client.listResources()).resources.map((r) => r.uri).sort();
  });
  await step('echo', async () => {
    seen.echo = text(await client.callTool({ name: 'echo', arguments: { text: 'hello from ts2' } }));
  });
  await step('progress', async () => {
    seen.slow = text(await client.callTool({ name: 'slow', arguments: { steps: 5, delayMs: 20 } },
      { onprogress: (p) => seen.progress.push(p) }));
  });
  await step('elicitation', async () => {
    seen.elicitation = text(await client.callTool({ name: 'test_elicitation', arguments: { message: 'who are you?' } }));
  });
  await step('prompt', async () => {
    const p = await client.getPrompt({ name: 'test_simple_prompt' });
    seen.prompt = p.messages[0].content.text;
  });
  await step('read', async () => {
    seen.counterBefore = (await client.readResource({ uri: 'demo://counter' })).contents[0].text;
  });
  await step('changes', async () => {
    let subscription;
    if (seen.era === 'modern') {
      subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['demo://counter'] });
      seen.honored = subscription.honoredFilter;
    } else {
      await client.subscribeResource({ uri: 'demo://counter' });
    }
    await client.callTool({ name: 'touch', arguments: { area: 'tools' } });
    await until(() => seen.listChanged > 0, 'tools/list_changed arrived');
    await client.callTool({ name: 'update_resource', arguments: { uri: 'demo://counter' } });
    await until(() => seen.updates.length > 0, 'resources/updated arrived');
    if (subscription) {
      await subscription.close();
      seen.listenClosed = await subscription.closed;
    }
  });
  await step('cancel', async () => {
    const abort = new AbortController();
    let steps = 0;
    const cancelled = client.callTool({ name: 'slow', arguments: { steps: 200, delayMs: 20 } },
      { signal: abort.signal, onprogress: () => { steps++; } });
    const failed = cancelled.then(() => false, () => true); // settles even if the wait below fails
    await until(() => steps > 0, 'the call to cancel is running');
    abort.abort('ts2 client cancels');
    seen.cancelled = await failed;
    seen.afterCancel = text(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }));
  });
} catch (e) {
  seen.errors.push(`connect: ${String(e?.message ?? e)}`);
} finally {
  process.stdout.write(JSON.stringify(seen) + '\n');
  await client.close().catch(() => {});
  process.exit(0);
}
