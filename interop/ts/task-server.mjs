// A TypeScript SDK 1.32.2 MCP server with 2025-11-25 experimental tasks, for Herald's client
// interop tests: stdio by default, or Streamable HTTP on 127.0.0.1 with --http PORT (0 picks a free
// port; the chosen one is printed to stderr as "listening on PORT"). It declares
// tasks.{list,cancel,requests.tools.call}, keeps tasks in the SDK's InMemoryTaskStore (per session)
// and queues a task's elicitation for delivery on tasks/result (InMemoryTaskMessageQueue).
//
// Tools (all registered with registerToolTask unless said otherwise):
//   task_steps    required: `steps` steps of `delayMs`, progress on the original request's token
//                 and a status message per step, then a result
//   task_optional optional: returns at once (a plain call is polled by the SDK itself)
//   task_fail     required: ends failed with an isError tool result
//   task_forever  required: works until cancelled
//   task_ask      required: input_required, an elicitation with related-task meta (delivered on
//                 tasks/result), then a result with the answer
//   plain_echo    a plain tool (taskSupport forbidden)
//   host_elicit   a plain tool that sends the CLIENT a task-augmented elicitation/create and
//                 returns what the client's task ended with (client-hosted tasks)
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { z } from 'zod';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const POLL = Number(process.env.TASK_POLL_MS ?? 200);

function build() {
  const server = new McpServer(
    { name: 'ts-task-peer', version: '1.0.0' },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: new InMemoryTaskStore(),
      taskMessageQueue: new InMemoryTaskMessageQueue(),
      defaultTaskPollInterval: POLL,
    },
  );

  // progress after the CreateTaskResult: on the original token, not tied to the finished request
  // (over HTTP it rides the standing GET stream)
  const progress = (token, p) => token === undefined
    ? Promise.resolve()
    : server.server.notification({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => {});

  const create = (store, ttl) => store.createTask({ ttl: ttl ?? 60000, pollInterval: POLL });
  const cancelled = async (store, taskId) => (await store.getTask(taskId))?.status === 'cancelled';
  const passthrough = {
    async getTask(_args, { taskId, taskStore }) { return await taskStore.getTask(taskId); },
    async getTaskResult(_args, { taskId, taskStore }) { return await taskStore.getTaskResult(taskId); },
  };

  server.experimental.tasks.registerToolTask('task_steps', {
    description: 'Steps with progress and a status message per step',
    inputSchema: { steps: z.number().int().default(5), delayMs: z.number().int().default(100) },
    execution: { taskSupport: 'required' },
  }, {
    async createTask({ steps, delayMs }, { taskStore, taskRequestedTtl, _meta }) {
      const task = await create(taskStore, taskRequestedTtl);
      const token = _meta?.progressToken;
      (async () => {
        for (let i = 1; i <= steps; i++) {
          await sleep(delayMs);
          if (await cancelled(taskStore, task.taskId)) return;
          await progress(token, { progress: i, total: steps, message: `step ${i} of ${steps}` });
          await taskStore.updateTaskStatus(task.taskId, 'working', `step ${i} of ${steps}`).catch(() => {});
        }
        if (await cancelled(taskStore, task.taskId)) return;
        await taskStore.storeTaskResult(task.taskId, 'completed',
          { content: [{ type: 'text', text: `completed ${steps} steps` }] }).catch(() => {});
      })();
      return { task };
    },
    ...passthrough,
  });

  server.experimental.tasks.registerToolTask('task_optional', {
    description: 'Returns at once',
    inputSchema: { text: z.string().default('hi') },
    execution: { taskSupport: 'optional' },
  }, {
    async createTask({ text }, { taskStore, taskRequestedTtl }) {
      const task = await create(taskStore, taskRequestedTtl);
      setTimeout(() => taskStore.storeTaskResult(task.taskId, 'completed',
        { content: [{ type: 'text', text: `optional: ${text}` }] }).catch(() => {}), 20);
      return { task };
    },
    ...passthrough,
  });

  server.experimental.tasks.registerToolTask('task_fail', {
    description: 'Ends failed with an isError result',
    inputSchema: {},
    execution: { taskSupport: 'required' },
  }, {
    async createTask(_args, { taskStore, taskRequestedTtl }) {
      const task = await create(taskStore, taskRequestedTtl);
      setTimeout(() => taskStore.storeTaskResult(task.taskId, 'failed',
        { content: [{ type: 'text', text: 'it broke' }], isError: true }).catch(() => {}), 50);
      return { task };
    },
    ...passthrough,
  });

  server.experimental.tasks.registerToolTask('task_forever', {
    description: 'Works until cancelled',
    inputSchema: {},
    execution: { taskSupport: 'required' },
  }, {
    async createTask(_args, { taskStore, taskRequestedTtl, _meta }) {
      const task = await create(taskStore, taskRequestedTtl);
      const token = _meta?.progressToken;
      (async () => {
        for (let i = 1; ; i++) {
          await sleep(50);
          if (await cancelled(taskStore, task.taskId)) return;
          await progress(token, { progress: i, message: `tick ${i}` });
        }
      })();
      return { task };
    },
    ...passthrough,
  });

  server.experimental.tasks.registerToolTask('task_ask', {
    description: 'Asks the requestor for a name (input_required), then greets',
    inputSchema: {},
    execution: { taskSupport: 'required' },
  }, {
    async createTask(_args, { taskStore, taskRequestedTtl }) {
      const task = await create(taskStore, taskRequestedTtl);
      (async () => {
        try {
          await taskStore.updateTaskStatus(task.taskId, 'input_required', 'waiting for a name');
          const r = await server.server.elicitInput({
            mode: 'form', message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          }, { relatedTask: { taskId: task.taskId } });
          await taskStore.updateTaskStatus(task.taskId, 'working', 'got an answer');
          await taskStore.storeTaskResult(task.taskId, 'completed',
            { content: [{ type: 'text', text: `${r.action}: hello ${r.content?.name ?? '?'}` }] });
        } catch (e) {
          await taskStore.storeTaskResult(task.taskId, 'failed',
            { content: [{ type: 'text', text: String(e) }], isError: true }).catch(() => {});
        }
      })();
      return { task };
    },
    ...passthrough,
  });

  server.registerTool('plain_echo', { description: 'Returns the text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }));

  server.registerTool('host_elicit', { description: 'Sends the client a task-augmented elicitation', inputSchema: {} },
    async () => {
      const lines = [];
      const stream = server.server.experimental.tasks.elicitInputStream({
        mode: 'form', message: 'Your color?',
        requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      }, { task: { ttl: 60000 } });
      for await (const m of stream) {
        if (m.type === 'taskCreated') lines.push(`created ${m.task.status}`);
        else if (m.type === 'taskStatus') lines.push(`status ${m.task.status}`);
        else if (m.type === 'result') lines.push(`result ${m.result.action} ${JSON.stringify(m.result.content ?? {})}`);
        else if (m.type === 'error') lines.push(`error ${m.error?.message ?? m.error}`);
      }
      return { content: [{ type: 'text', text: lines.join('\n') }] };
    });
  void ElicitResultSchema;
  return server;
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
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(port, '127.0.0.1', () => {
    process.stderr.write(`listening on ${httpServer.address().port}\n`);
  });
} else {
  await build().connect(new StdioServerTransport());
}
