/**
 * perf's samples of a Node.js process, each given to the layer that spent it, for
 * bench/cpu-split.ts. The input is `perf script -F ip,sym,dso` of a recording with call chains
 * (`perf record -g`) of a process started with `--perf-basic-prof-only-functions`, so that its
 * JavaScript frames read `JS:<tier><name> <url>:<line>:<column>`. A sample is the lines of its
 * frames, the innermost first, and a blank line after it. Top-level code reads `Script:` and
 * code compiled at run time by `eval` or `new Function` `Eval:`, and the latter's functions have
 * no URL.
 *
 * The layer of a sample: the kernel's when it was taken in the kernel; else, going outwards
 * from the innermost frame, V8's collector or compiler when one of their frames comes before
 * any JavaScript, or else the owner of the first JavaScript frame: V8's builtins and the native
 * code a function calls count as that function's. A sample with neither is Node.js's native
 * code (the HTTP parser, libuv, V8's runtime between calls).
 *
 * What this cannot see: a function V8 inlined into another counts as the one it was inlined
 * into, whoever owns it.
 */
export const LAYERS = [
  { layer: 'kernel', name: 'kernel', holds: 'system calls, the loopback network stack' },
  {
    layer: 'node',
    name: 'Node.js',
    holds: 'its JavaScript (HTTP, streams, timers) and native code (HTTP parser, libuv)',
  },
  { layer: 'collector', name: 'collector', holds: "V8's garbage collector" },
  { layer: 'compiler', name: 'compilers', holds: "V8's compilers and parser" },
  { layer: 'dependencies', name: 'dependencies', holds: 'code under node_modules' },
  {
    layer: 'own',
    name: 'own code',
    holds: "the server's modules, and the code it compiles at run time",
  },
] as const;

export type Layer = (typeof LAYERS)[number]['layer'];

export interface Split {
  readonly samples: number;
  readonly byLayer: Readonly<Record<Layer, number>>;
  /** Samples of the server's own code by its innermost own function. */
  readonly ownFunctions: ReadonlyMap<string, number>;
}

const FRAME = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)\s*$/;
/** A JavaScript frame's symbol: its kind and tier, its name (maybe empty), its location. */
const JS_FRAME = /^(?:JS|Script|Eval):[*~^+-]?(.*?)\s(\S+)$/;
const KERNEL = '[kernel.kallsyms]';
const COLLECTOR =
  /v8::internal::(Heap|Scavenger|ScavengerCollector|ScavengeJob|MarkCompact|MinorMarkCompact|MinorMS|Sweeper|ConcurrentMarking|IncrementalMarking|GCTracer|heap::|MarkingVisitor|MainMarkingVisitor|MemoryAllocator|MemoryReducer|ArrayBufferSweeper|PagedSpace|SemiSpace|NewSpace)/;
const COMPILER =
  /v8::internal::(compiler::|maglev::|baseline::|OptimizingCompileDispatcher|Compiler::|Parser::|PreParser|Scanner::|interpreter::BytecodeGenerator)/;

export class SampleSplitter {
  #frames: { readonly symbol: string; readonly dso: string }[] = [];
  #samples = 0;
  readonly #byLayer: Record<Layer, number> = {
    kernel: 0,
    node: 0,
    collector: 0,
    compiler: 0,
    dependencies: 0,
    own: 0,
  };
  readonly #ownFunctions = new Map<string, number>();

  /**
   * `ownCode`: matches a JavaScript frame's location (its URL, line and column; only `:line:column`
   * for code compiled at run time, which has no URL) when the server's own code runs in it.
   */
  constructor(private readonly ownCode: RegExp) {}

  /** One line of `perf script`'s output. */
  line(text: string): void {
    const frame = FRAME.exec(text);
    if (frame !== null) {
      this.#frames.push({ symbol: frame[1]!, dso: frame[2]! });
      return;
    }
    if (text.trim() === '') this.#endSample();
  }

  result(): Split {
    this.#endSample();
    return {
      samples: this.#samples,
      byLayer: { ...this.#byLayer },
      ownFunctions: new Map(this.#ownFunctions),
    };
  }

  #endSample(): void {
    const frames = this.#frames;
    if (frames.length === 0) return;
    this.#frames = [];
    this.#samples += 1;
    this.#byLayer[this.#layerOf(frames)] += 1;
  }

  #layerOf(frames: readonly { readonly symbol: string; readonly dso: string }[]): Layer {
    if (frames[0]!.dso === KERNEL) return 'kernel';
    for (const { symbol } of frames) {
      if (COLLECTOR.test(symbol)) return 'collector';
      if (COMPILER.test(symbol)) return 'compiler';
      const js = JS_FRAME.exec(symbol);
      if (js === null) continue;
      const [, name, location] = js as unknown as [string, string, string];
      if (this.ownCode.test(location)) {
        const own = `${name || '(anonymous)'} ${location}`;
        this.#ownFunctions.set(own, (this.#ownFunctions.get(own) ?? 0) + 1);
        return 'own';
      }
      return location.includes('/node_modules/') ? 'dependencies' : 'node';
    }
    return 'node';
  }
}
