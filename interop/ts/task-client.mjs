// The TypeScript SDK's client driving Herald's task tools (MCP 2025-11-25 experimental tasks) for
// Herald's interop tests. Usage:
//   node task-client.mjs -- <server command ...>     (stdio)
//   node task-client.mjs http://127.0.0.1:PORT/mcp   (Streamable HTTP)
// Runs a fixed script against Herald's demo fixture (docs/fixture.md, "Tasks") and prints one JSON
// object with what it saw: a task followed to its result with progress, tasks/get and tasks/result
// by hand, an elicitation answered during a task, a tool error, a protocol error, a cancellation
// and tasks/list.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const argv = process.argv.slice(2);
const transport = argv[0] === '--'
  ? new StdioClientTransport({ command: argv[1], args: argv.slice(2), stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(argv[0]));

const seen = { errors: [], statusNotifications: [], elicitations: [] };
const client = new Client({ name: 'ts-task-client', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, defaultTaskPollInterval: 100 });
client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
  seen.statusNotifications.push({ taskId: n.params.taskId, status: n.params.status });
});
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  seen.elicitations.push({ message: req.params.message, relatedTask: req.params._meta?.[RELATED_TASK]?.taskId ?? null });
  return { action: 'accept', content: { confirm: true } };
});

const text = (r) => (r?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');
const terminal = (s) => ['completed', 'failed', 'cancelled'].includes(s);
// Polls tasks/get until the task is in one of `statuses` (or terminal); fails after 20 s.
const until = async (taskId, statuses) => {
  for (const deadline = Date.now() + 20_000; ;) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (statuses.includes(task.status) || terminal(task.status)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} never reached ${statuses}: ${task.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
// Creates a task with a task-augmented tools/call and returns its CreateTaskResult's task.
const createTask = async (name, args) => (await client.request(
  { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
  CreateTaskResultSchema)).task;
// Runs callToolStream to its end and returns the kinds of messages, the statuses and the outcome.
const stream = async (name, args, onprogress) => {
  const out = { kinds: [], statuses: [] };
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args },
    CallToolResultSchema, { task: { ttl: 60_000 }, onprogress })) {
    out.kinds.push(m.type);
    if (m.type === 'taskCreated') out.taskId = m.task.taskId;
    if (m.type === 'taskStatus') out.statuses.push(m.task.status);
    if (m.type === 'result') { out.text = text(m.result); out.isError = m.result.isError === true; }
    if (m.type === 'error') out.error = String(m.error?.message ?? m.error);
  }
  return out;
};
const failure = async (f) => {
  try { await f(); return null; } catch (e) { return { code: e?.code ?? null, message: String(e?.message ?? e) }; }
};

try {
  await client.connect(transport);
  seen.capabilities = client.getServerCapabilities();
  seen.taskSupport = Object.fromEntries((await client.listTools()).tools
    .filter((t) => t.execution?.taskSupport).map((t) => [t.name, t.execution.taskSupport]));

  // A task followed by the SDK's stream, with the task's progress on the call's listener.
  const progress = [];
  seen.slow = await stream('slow_compute', { seconds: 1, label: 'ts' }, (p) => progress.push(p.progress));
  seen.slow.progress = progress;

  // The same by hand: tools/call with params.task, tasks/get until terminal, tasks/result.
  const created = await createTask('slow_compute', { seconds: 0.5, label: 'by-hand' });
  seen.created = { status: created.status, ttl: created.ttl, pollInterval: created.pollInterval ?? null };
  const done = await until(created.taskId, []);
  const payload = await client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
  seen.byHand = { status: done.status, text: text(payload), relatedTask: payload._meta?.[RELATED_TASK]?.taskId === created.taskId };

  // An elicitation answered while the task waits for it (input_required).
  seen.confirm = await stream('confirm_delete', { filename: 'ts.txt' });

  // A tool error result ends the task failed (2025-11-25); tasks/result still gives the result.
  const failing = await createTask('failing_job', {});
  const failed = await until(failing.taskId, []);
  const failedPayload = await client.experimental.tasks.getTaskResult(failing.taskId, CallToolResultSchema);
  seen.failing = { status: failed.status, isError: failedPayload.isError === true, text: text(failedPayload) };

  // A protocol error: the task fails and tasks/result answers with the original JSON-RPC error.
  const broken = await createTask('protocol_error_job', {});
  seen.protocolError = {
    status: (await until(broken.taskId, [])).status,
    result: await failure(() => client.experimental.tasks.getTaskResult(broken.taskId, CallToolResultSchema)),
  };

  // tasks/cancel while it works: cancelled at once; a second cancel of the terminal task is -32602.
  const long = await createTask('slow_compute', { seconds: 60, label: 'to-cancel' });
  await until(long.taskId, ['working']);
  const ack = await client.experimental.tasks.cancelTask(long.taskId);
  seen.cancel = {
    ackStatus: ack.status,
    status: (await client.experimental.tasks.getTask(long.taskId)).status,
    again: await failure(() => client.experimental.tasks.cancelTask(long.taskId)),
    unknown: await failure(() => client.experimental.tasks.getTask('no-such-task')),
  };

  // tasks/list shows this session's tasks.
  const listed = [];
  let cursor;
  do {
    const page = await client.experimental.tasks.listTasks(cursor);
    listed.push(...page.tasks.map((t) => t.taskId));
    cursor = page.nextCursor;
  } while (cursor);
  seen.listed = [created.taskId, failing.taskId, broken.taskId, long.taskId].every((id) => listed.includes(id));
} catch (e) {
  seen.errors.push(String(e?.stack ?? e?.message ?? e));
} finally {
  process.stdout.write(JSON.stringify(seen) + '\n');
  await client.close().catch(() => {});
}
