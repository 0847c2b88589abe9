// Realistic notebook documents for the seeds and the bulk helper.
import type { Json } from './model';
import type { Rng } from './random';
import {
  bulletList, codeBlock, doc, eventsQueryNode, featureFlagNode, heading, insightNode, markdownDoc, nodeId, paragraph, personNode,
  recordingNode, replayTimestamp, savedInsightNode, text,
} from './content';

export interface SampleNotebook {
  title: string;
  content: Json;
}

/** Session ids and insight short ids that seeded notebooks refer to (handy for `contains` tests). */
export const SAMPLE_REFS = {
  recording: '0191c2a7-5e2b-7c1d-9f3e-2a6b8c4d1e0f',
  otherRecording: '0191c2b9-1d4e-7a2b-8c3d-4e5f6a7b8c9d',
  insight: 'Xk3pQ9aZ',
  flagId: 42,
  person: 'maya.okafor17@gmail.com',
};

export function sampleNotebooks(rng: Rng): SampleNotebook[] {
  const r = SAMPLE_REFS;
  return [
    {
      title: 'Weekly product review',
      content: doc(
        heading(1, 'Weekly product review'),
        paragraph('Signups are up ', text('12%', ['bold']), ' week over week, mostly from organic search.'),
        savedInsightNode(r.insight, nodeId(rng)),
        heading(2, 'Highlights'),
        bulletList('File sharing links doubled after the new share dialog', 'Upload errors dropped below 0.5%', 'Pricing page bounce rate is still high'),
        recordingNode(r.recording, nodeId(rng)),
        replayTimestamp(r.recording, 83_000, ' user hesitates on the plan picker'),
      ),
    },
    {
      title: 'Onboarding funnel investigation',
      content: doc(
        heading(1, 'Onboarding funnel investigation'),
        paragraph('Where do new users drop off between ', text('signed_up', ['code']), ' and their first upload?'),
        eventsQueryNode(['event', 'person', 'timestamp'], nodeId(rng), ["event = 'signed_up'"]),
        heading(2, 'Sessions worth watching'),
        recordingNode(r.otherRecording, nodeId(rng)),
        personNode(r.person, nodeId(rng)),
        paragraph('Next step: compare with the mobile app funnel.'),
      ),
    },
    {
      title: 'Pricing experiment notes',
      content: doc(
        heading(1, 'Pricing experiment notes'),
        paragraph('The annual-discount variant is behind a feature flag.'),
        featureFlagNode(r.flagId, nodeId(rng)),
        bulletList('Control: monthly prices first', 'Test: annual prices first, 20% discount badge'),
        insightNode(r.insight, nodeId(rng)),
      ),
    },
    {
      title: 'SQL snippets',
      content: doc(
        heading(1, 'SQL snippets'),
        paragraph('Queries we keep reusing.'),
        codeBlock('sql', "SELECT properties.$browser, count()\nFROM events\nWHERE event = '$pageview'\nGROUP BY 1"),
        eventsQueryNode(['properties.$browser', 'count()'], nodeId(rng)),
      ),
    },
    {
      title: 'Old launch checklist',
      content: doc(
        heading(1, 'Old launch checklist'),
        bulletList('Update the changelog', 'Announce in the community forum', 'Turn on the launch banner'),
        paragraph(),
      ),
    },
  ];
}

/**
 * Markdown notebooks as PostHog's web app writes them today (PostHog's dialect: a line break in a paragraph is
 * a line break, list items are one line each, quotes hold text), with the tags it knows: embedded nodes
 * (Query, Insight, Recording, FeatureFlag with a named view, Person, SQLV2), a discussion thread (a
 * `<Comment>` anchored to `<ref>` text), a mention, a note (`<!-- -->`), a divider and an image.
 */
export function sampleMarkdownNotebooks(): SampleNotebook[] {
  const r = SAMPLE_REFS;
  return [
    {
      title: 'Signup drop-off',
      content: markdownDoc([
        '# Signup drop-off',
        '',
        'Signups fell **18%** on Tuesday. Most of the loss is between the pricing page and the signup form.',
        'Numbers from the Tuesday export, checked twice.',
        '',
        `<Query query={{"kind":"SavedInsightNode","shortId":"${r.insight}"}} />`,
        '',
        '## What we checked',
        '',
        '- [x] Ad spend and campaign links',
        '- [x] Errors on `/signup`',
        '- [ ] Mobile Safari sessions',
        '  - [ ] iOS 17 only',
        '',
        '<Comment ref="c-safari" replies={[{"id":"r-1","text":"Is this mobile only?","author":"Lee","at":"2024-09-03T10:12:00Z"},{"id":"r-2","text":"Mostly: 80% of the failed forms.","author":"Priya","at":"2024-09-03T10:40:00Z"}]} />',
        '',
        `<ref id="c-safari">The captcha fails on mobile Safari</ref>, says <mention id="2">@Lee</mention>.`,
        '',
        `<Recording id="${r.recording}" view="summary" />`,
        '',
        '> The form reset itself after a failed captcha, twice in a row.',
        '> Seen in three sessions.',
        '',
        '| Step | Users | Conversion |',
        '| --- | ---: | ---: |',
        '| Pricing page | 4,210 | 100% |',
        '| Signup form | 1,830 | 43% |',
        '| Signed up | 1,120 | 27% |',
        '',
        '<!-- Ask design about the captcha copy -->',
        '',
        'Next: watch the [replays of failed signups](https://us.posthog.com/replay) with the team.',
      ].join('\n')),
    },
    {
      title: 'Activation metrics',
      content: markdownDoc([
        '# Activation metrics',
        '',
        'Weekly active uploaders, and what moved them. _Owner: Priya_',
        '',
        '```sql',
        'SELECT toStartOfWeek(timestamp) AS week, count(DISTINCT person_id) AS uploaders',
        'FROM events',
        "WHERE event = 'uploaded_file'",
        'GROUP BY week',
        'ORDER BY week',
        '```',
        '',
        '<Query query={{"kind":"DataTableNode","source":{"kind":"HogQLQuery","query":"select event, count() from events group by event"}}} />',
        '',
        `<Insight id="${r.insight}" view="summary" />`,
        '',
        '1. Share the numbers in the weekly review',
        '2. Compare with the ~~old~~ new onboarding flow',
        '',
        `<FeatureFlag id={${r.flagId}} view="conditions" />`,
        '',
        '<SQLV2 nodeId="uploads-by-week" code="select count() from events where event = \'uploaded_file\'" returnVariable="uploads" />',
        '',
        '---',
        '',
        `<Person id="${r.person}" showFilters />`,
        '',
        '![Weekly uploads in September](https://us.posthog.com/static/weekly-uploads.png)',
      ].join('\n')),
    },
    {
      title: 'Support tickets review',
      content: markdownDoc([
        '# Support tickets review',
        '',
        'Top themes this month:',
        '',
        '- Sharing links that expire too soon',
        '- Upload limits on the free plan',
        '',
        `<Query query={{"kind":"SavedInsightNode","shortId":"${r.insight}"}} />`,
      ].join('\n')),
    },
    {
      // Query cards the extension runs against the local API (Run, Run All): a trend with a chart, a HogQL table,
      // the events table, and a SQL cell.
      title: 'Weekly product numbers',
      content: markdownDoc([
        '# Weekly product numbers',
        '',
        'Run the cards with the **Run** lens above each, or Run All Queries from the title bar.',
        '',
        '## Pageviews and uploads, daily',
        '',
        '<Query query={{"kind":"InsightVizNode","source":{"kind":"TrendsQuery","series":[{"kind":"EventsNode","event":"$pageview","name":"$pageview","math":"total"},{"kind":"EventsNode","event":"uploaded_file","name":"uploaded_file","math":"total"}],"interval":"day","dateRange":{"date_from":"-14d"}}}} />',
        '',
        '## Top events',
        '',
        '<Query query={{"kind":"DataVisualizationNode","source":{"kind":"HogQLQuery","query":"select event, count() as events from events group by event order by events desc limit 10"},"display":"ActionsTable"}} />',
        '',
        '## Latest signups',
        '',
        '<Query query={{"kind":"DataTableNode","source":{"kind":"EventsQuery","select":["*","event","timestamp"],"event":"signed_up","after":"-7d","limit":50}}} />',
        '',
        '## Uploads this week',
        '',
        '<SQLV2 nodeId="uploads-this-week" code="select count() as uploads from events where event = \'uploaded_file\' and timestamp > now() - interval 7 day" returnVariable="uploads" />',
      ].join('\n')),
    },
  ];
}

const TOPICS = ['Retention deep dive', 'Churn signals', 'Upload performance', 'Marketing attribution', 'Mobile vs web', 'Support tickets review'];

/** A small but real document for bulk notebooks; every third one holds a recording. */
export function makeNotebookContent(rng: Rng, title: string, index: number): Json {
  const nodes = [heading(1, title), paragraph(`${TOPICS[index % TOPICS.length]}: notes taken while exploring the data.`)];
  if (index % 3 === 0) nodes.push(recordingNode(rng.uuid(Date.UTC(2024, 8, 1) + index * 1000), nodeId(rng)));
  if (index % 4 === 1) nodes.push(savedInsightNode(rng.base62(8), nodeId(rng)));
  nodes.push(bulletList('Check the numbers again next week', 'Share with the team'));
  return doc(...nodes);
}
