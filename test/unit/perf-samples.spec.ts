import { describe, expect, it } from 'vitest';
import { SampleSplitter } from '../../bench/perf-samples.js';

/** One sample as `perf script -F ip,sym,dso` prints it: its frames, the innermost first. */
const sample = (...frames: [symbol: string, dso: string][]) => [
  ...frames.map(([symbol, dso], at) => `\t    ${(0x1000 + at).toString(16)} ${symbol} (${dso})`),
  '',
];

const NODE = '/usr/bin/node';
const MAP = '/tmp/perf-4242.map';
const KERNEL = '[kernel.kallsyms]';
const OURS = /^(file:\/\/\/srv\/dist\/|:\d)/;

function split(lines: string[]) {
  const splitter = new SampleSplitter(OURS);
  for (const line of lines) splitter.line(line);
  return splitter.result();
}

describe('SampleSplitter', () => {
  it('gives a sample taken in the kernel to the kernel, whatever called it', () => {
    const result = split(
      sample(
        ['tcp_sendmsg_locked', KERNEL],
        ['__GI___writev', '/usr/lib/x86_64-linux-gnu/libc.so.6'],
        ['JS:*handle file:///srv/dist/server/fast-path.js:213:20', MAP],
      ),
    );
    expect(result.samples).toBe(1);
    expect(result.byLayer.kernel).toBe(1);
    expect(result.ownFunctions.size).toBe(0);
  });

  it("gives builtins and native callees to the innermost JavaScript frame's owner", () => {
    const result = split([
      ...sample(
        ['Builtins_LoadIC_Megamorphic', NODE],
        ['JS:*handle file:///srv/dist/server/fast-path.js:213:20', MAP],
        ['JS:*parserOnIncoming node:_http_server:1026:26', MAP],
      ),
      ...sample(
        ['node::StreamBase::Writev', NODE],
        ['JS:*clearBuffer node:internal/streams/writable:744:21', MAP],
        ['JS:*sendWholeAnswer file:///srv/dist/server/http/answers.js:153:32', MAP],
      ),
      ...sample(
        ['Builtins_KeyedLoadIC', NODE],
        ['JS:^get file:///srv/node_modules/lru-cache/dist/esm/index.js:1:300', MAP],
        ['JS:*read file:///srv/dist/reads/loader.js:75:10', MAP],
      ),
    ]);
    expect(result.byLayer).toEqual({
      kernel: 0,
      node: 1,
      collector: 0,
      compiler: 0,
      dependencies: 1,
      own: 1,
    });
    expect([...result.ownFunctions]).toEqual([
      ['handle file:///srv/dist/server/fast-path.js:213:20', 1],
    ]);
  });

  it('counts functions compiled at run time, which have no URL, by the pattern for own code', () => {
    const result = split([
      ...sample(['JS:*Artist__fieldhistoryMapHandler :1153:42', MAP], ['JS:*ret :159:3', MAP]),
      ...sample(['JS:~ :1:20', MAP]),
    ]);
    expect(result.byLayer.own).toBe(2);
    expect([...result.ownFunctions]).toEqual([
      ['Artist__fieldhistoryMapHandler :1153:42', 1],
      ['(anonymous) :1:20', 1],
    ]);
  });

  it('gives the collector and the compilers what they run, before any JavaScript frame', () => {
    const result = split([
      ...sample(
        ['v8::internal::Scavenger::ScavengePage', NODE],
        ['v8::internal::Heap::CollectGarbage', NODE],
        ['Builtins_AllocateInYoungGeneration', NODE],
        ['JS:*handle file:///srv/dist/server/fast-path.js:213:20', MAP],
      ),
      ...sample(
        ['v8::internal::compiler::GraphReducer::ReduceTop', NODE],
        ['v8::internal::OptimizingCompileDispatcher::CompileTask::Run', NODE],
      ),
      ...sample(['uv__io_poll', NODE], ['uv_run', NODE], ['node::Start', NODE]),
    ]);
    expect(result.byLayer).toEqual({
      kernel: 0,
      node: 1,
      collector: 1,
      compiler: 1,
      dependencies: 0,
      own: 0,
    });
  });

  it('reads a last sample with no blank line after it, and lines that are no frame as nothing', () => {
    const splitter = new SampleSplitter(OURS);
    for (const line of [
      '',
      'garbage',
      '\t    1000 JS:*run file:///srv/dist/a.js:1:1 (/tmp/perf-1.map)',
    ])
      splitter.line(line);
    expect(splitter.result()).toMatchObject({ samples: 1, byLayer: { own: 1 } });
  });
});
