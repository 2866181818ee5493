import pino from 'pino';
import { PinoNestLogger } from './logger';

describe('PinoNestLogger', () => {
  const logged = (level: string, write: (nest: PinoNestLogger) => void) => {
    const lines: Array<{ level: number; msg: string; context?: string }> = [];
    const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
    write(new PinoNestLogger(logger));
    return lines.map((l) => [l.context, l.msg]);
  };

  it("keeps Nest's start-up narration (modules, routes) out of the info log, and everything else in", () => {
    const narrate = (nest: PinoNestLogger) => {
      nest.log('ImportsModule dependencies initialized', 'InstanceLoader');
      nest.log('ImportsController {/api/v1/imports}:', 'RoutesResolver');
      nest.log('Mapped {/api/v1/imports, POST} route', 'RouterExplorer');
      nest.log('Starting Nest application...', 'NestFactory');
      nest.log('Nest application successfully started', 'NestApplication');
      nest.warn('queue slow', 'Imports');
    };
    expect(logged('info', narrate)).toEqual([
      ['NestApplication', 'Nest application successfully started'],
      ['Imports', 'queue slow'],
    ]);
    expect(logged('debug', narrate)).toHaveLength(6);
  });
});
