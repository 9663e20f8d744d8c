// A counting semaphore with a bounded line: at most `running` tasks at once, at most `waiting` queued behind
// them. Password hashing uses it so argon2 cannot occupy every thread of libuv's pool (file system work shares it).
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function concurrencyLimit(running: number, waiting: number, whenFull: () => Error): ConcurrencyLimit {
  let active = 0;
  const line: Array<() => void> = [];

  function release(): void {
    const next = line.shift();
    if (next) next();
    else active--;
  }

  return {
    async run(task) {
      if (active < running) active++;
      else if (line.length < waiting) await new Promise<void>((resolve) => line.push(resolve));
      else throw whenFull();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
