// The contact endpoint's companion Worker: every minute it delivers the messages the Pages
// Function stored in D1 but could not hand on yet (the webhook was down, answered late, or the
// function was stopped between storing and delivering). A Pages project cannot run a schedule
// itself; this Worker binds the same D1 database. docs/deploy-cloudflare-pages.md sets it up.
import contact from '../../site/api/contact.ts';
import { deliverContactMessages, SWEEP, type ContactEdgeEnv } from '../../site/contact/edge.ts';
import { pagesSettings, type DeliveryPassResult } from 'ssg/server';

/** One sweep: the due messages, oldest first, within one run's bounds. Logs what it did; never throws. */
export async function sweep(env: ContactEdgeEnv): Promise<DeliveryPassResult | undefined> {
  try {
    const result = await deliverContactMessages(env, pagesSettings(env), contact, SWEEP);
    if (result.delivered || result.failed)
      console.log(`contact-sweeper: ${result.delivered} delivered, ${result.failed} failed`);
    return result;
  } catch (error) {
    console.error(`contact-sweeper: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

export default {
  scheduled(_controller: unknown, env: ContactEdgeEnv, context: { waitUntil(promise: Promise<unknown>): void }) {
    context.waitUntil(sweep(env));
  },
};
