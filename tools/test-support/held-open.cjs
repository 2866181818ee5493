// Preloaded into Jest and its workers by tools/test.mjs. Jest ends a worker that does not exit once its suites are
// done with SIGTERM (SIGKILL half a second later) and says only that one "failed to exit gracefully". Here the worker
// first names what still holds it open (servers, sockets, child processes, timers), so a leak shows in the log.
'use strict';

if (process.env.JEST_WORKER_ID) {
  process.once('SIGTERM', () => {
    const describe = (handle) => {
      const kind = handle?.constructor?.name ?? typeof handle;
      if (typeof handle?.address === 'function' && handle.listening) return `${kind} listening on ${JSON.stringify(handle.address())}`;
      if (kind === 'Socket' && handle.remotePort) return `Socket to ${handle.remoteAddress}:${handle.remotePort}`;
      if (kind === 'ChildProcess') return `ChildProcess ${handle.spawnfile} (pid ${handle.pid})`;
      return kind;
    };
    const handles = process._getActiveHandles().map(describe);
    const resources = process.getActiveResourcesInfo().join(', ');
    process.stderr.write(`Jest worker ${process.env.JEST_WORKER_ID} (pid ${process.pid}) was held open by: ${handles.join('; ') || 'no handle'} [resources: ${resources}]\n`);
    process.kill(process.pid, 'SIGTERM'); // the listener is gone: Node's default, end now
  });
}
