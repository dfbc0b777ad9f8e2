import type { KyselyPlugin } from 'kysely';

/** Counts the statements run through the Kysely handle it is added to (`db.withPlugin(counter)`). */
export class StatementCounter implements KyselyPlugin {
  count = 0;
  transformQuery: KyselyPlugin['transformQuery'] = (args) => {
    this.count += 1;
    return args.node;
  };
  transformResult: KyselyPlugin['transformResult'] = async (args) => args.result;
}
