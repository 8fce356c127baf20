/**
 * The demo documents themselves: what a buyer of a demo text downloads, and what its preview shows as
 * a first page. Prompts for text models carry a sample answer, shown beside the prompt.
 */
export type DemoDocument = {
  /** A line above the title: the kind of document. */
  kicker: string;
  sections: Array<{ heading: string; paragraphs: string[] }>;
};

export const demoDocuments: Record<string, DemoDocument> = {
  'launch-email-sequence': {
    kicker: 'Email sequence · 5 emails',
    sections: [
      {
        heading: 'Email 1 — The teaser',
        paragraphs: [
          'Subject: Something we have been building for a year',
          'Hi {first name}, for twelve months a small team has worked on one question: why does planning a week still take an afternoon? On Thursday we will show you our answer. Keep an eye on your inbox.',
        ],
      },
      {
        heading: 'Email 2 — The problem',
        paragraphs: [
          'Subject: The afternoon you lose every Monday',
          'Most teams plan in three tools and trust none of them. Here is what that costs, in hours and in missed deadlines.',
        ],
      },
      { heading: 'Email 3 — Launch day', paragraphs: ['Subject: It is live, and the first month is on us', 'Today you can try it with your own team.'] },
    ],
  },
  'freelance-contract-template': {
    kicker: 'Agreement template',
    sections: [
      {
        heading: '1. Parties and scope',
        paragraphs: [
          'This agreement is made between {Client} and {Freelancer}. The Freelancer will deliver the work described in Schedule A, and nothing beyond it unless both parties agree in writing.',
        ],
      },
      {
        heading: '2. Revisions',
        paragraphs: ['The fee includes two rounds of revisions. Further rounds are billed at the hourly rate in Schedule B, agreed before the work starts.'],
      },
      { heading: '3. Payment', paragraphs: ['Half of the fee is due on signing and half on delivery. Invoices are payable within 14 days.'] },
      { heading: '4. Rights', paragraphs: ['Copyright passes to the Client when the final invoice is paid in full.'] },
    ],
  },
  'the-slow-travel-essay': {
    kicker: 'Essay · 2,000 words',
    sections: [
      {
        heading: 'The 07:12 to Ljubljana',
        paragraphs: [
          'The night train from Vienna does not hurry, and after the first hour neither do you. Somewhere past Graz the fields turn blue, the conductor stops checking tickets and starts offering coffee, and the idea of a destination loosens its grip.',
          'Flying compresses a continent into a departure lounge. The train gives it back to you in the order it was built: suburbs, farms, rivers, borders you only notice because the announcements change language.',
        ],
      },
      { heading: 'What the window teaches', paragraphs: ['Slow travel is not a budget choice. It is a way of paying attention.'] },
    ],
  },
  'landing-page-copy-kit': {
    kicker: 'Copy kit · SaaS landing page',
    sections: [
      {
        heading: 'Hero',
        paragraphs: ['Headline: Close the month in an afternoon.', 'Subhead: Invoices, expenses and reports in one place your accountant will actually like.'],
      },
      {
        heading: 'Benefit blocks',
        paragraphs: [
          'Less typing. Bank feeds fill in the numbers, you only check them.',
          'Fewer surprises. See cash for the next 90 days, every morning.',
          'No lock-in. Export everything, any day, in one click.',
        ],
      },
      { heading: 'Call to action', paragraphs: ['Start free for 30 days. No card needed.'] },
    ],
  },
  'meeting-notes-template': {
    kicker: 'Template',
    sections: [
      { heading: 'Meeting', paragraphs: ['Date, time and who was there. Purpose of the meeting in one sentence.'] },
      {
        heading: 'Decisions',
        paragraphs: ['1. What was decided, by whom, and why — one line each.', '2. Anything parked, with the date it will be picked up again.'],
      },
      { heading: 'Actions', paragraphs: ['Owner · Task · Due date. One owner per task, always a date.'] },
      { heading: 'Follow-up', paragraphs: ['Notes go out within 24 hours. Open actions open the next meeting.'] },
    ],
  },
  'guide-to-sourdough': {
    kicker: 'Article · baking',
    sections: [
      {
        heading: 'Your starter is a pet',
        paragraphs: [
          'A sourdough starter is flour, water and patience. Feed it equal weights of both every day for a week and it will reward you with bubbles, a sour smell and, eventually, bread that tastes like nothing from a shop.',
        ],
      },
      {
        heading: 'Hydration, simply',
        paragraphs: ['Hydration is the weight of water divided by the weight of flour. Start at 70 percent: wet enough to open, dry enough to shape.'],
      },
      { heading: 'The first loaf', paragraphs: ['Mix, rest, fold four times, shape, and let the fridge do the rest overnight.'] },
    ],
  },
  'product-description-pack': {
    kicker: 'Copy pack · 20 descriptions',
    sections: [
      {
        heading: 'Silver leaf earrings',
        paragraphs: [
          'Hand-cut from recycled silver and brushed to a soft glow, these leaves move when you do. Light enough to forget, bright enough to be noticed.',
        ],
      },
      { heading: 'Moonstone ring', paragraphs: ['A milky moonstone set in a slim band, catching blue light at every turn. Made to order in your size.'] },
      { heading: 'Knotted gold chain', paragraphs: ['One hand-tied knot on a fine 14k chain: a small promise, worn every day.'] },
    ],
  },
  'press-release-template': {
    kicker: 'For immediate release',
    sections: [
      {
        heading: '{Company} launches {product} to {benefit}',
        paragraphs: [
          '{City}, {date} — {Company} today announced {product}, a {category} that helps {audience} {benefit}. It is available from {date} at {price}.',
        ],
      },
      { heading: 'Quote', paragraphs: ['“{One sentence on why this matters},” said {name}, {title} at {Company}.'] },
      { heading: 'About {Company}', paragraphs: ['{Two sentences of boilerplate: what the company does, for whom, since when.}'] },
      { heading: 'Media contact', paragraphs: ['{Name} · {e-mail} · {phone}'] },
    ],
  },
  'remote-work-manifesto': {
    kicker: 'Opinion',
    sections: [
      {
        heading: 'Write it down',
        paragraphs: [
          'A team that works apart cannot rely on hallway conversations. It has to write: decisions, reasons, plans. That sounds like overhead; it is the opposite. Writing is how a team remembers.',
        ],
      },
      { heading: 'Trust by default', paragraphs: ['Measure what people ship, not when their status light is green.'] },
      { heading: 'Protect deep work', paragraphs: ['Two meeting-free days a week. Calendars are shared; attention is not.'] },
    ],
  },
  'podcast-show-notes-kit': {
    kicker: 'Template kit · podcasts',
    sections: [
      {
        heading: 'Episode summary',
        paragraphs: ['In this episode, {guest} tells us how {story}. We talk about {topic one}, {topic two} and the one mistake {guest} would never repeat.'],
      },
      { heading: 'Timestamps', paragraphs: ['00:00 Welcome · 03:10 How it started · 18:45 The hard year · 41:20 Listener questions'] },
      { heading: 'Guest bio', paragraphs: ['{Guest} is a {role} based in {city}. Find them at {link}.'] },
    ],
  },
  'brand-voice-guide': {
    kicker: 'Brand guide · a coffee roaster',
    sections: [
      {
        heading: 'Our voice in one line',
        paragraphs: ['We talk like the person behind the counter who remembers your order: warm, precise, never pushy.'],
      },
      { heading: 'Words we use', paragraphs: ['Roast, origin, harvest, brew, cup, neighbour.'] },
      { heading: 'Words we avoid', paragraphs: ['Artisanal, premium, world-class, game-changing.'] },
      { heading: 'Do and do not', paragraphs: ['Do name the farm. Do not use more than one exclamation mark per page.'] },
    ],
  },
  'urban-gardening-article': {
    kicker: 'Article · 1,500 words',
    sections: [
      {
        heading: 'A garden in two square metres',
        paragraphs: [
          'A balcony facing south gets more sun than most allotments. With three deep pots, a bag of good compost and a watering can, it will feed you basil, mint, chives and salad leaves from May to October.',
        ],
      },
      { heading: 'Start with herbs', paragraphs: ['Herbs forgive. Buy small plants, not seeds, for the first season.'] },
      { heading: 'Water in the morning', paragraphs: ['Pots dry out fast; a saucer under each one saves half of the work.'] },
    ],
  },
  'cold-email-writer': {
    kicker: 'Sample answer',
    sections: [
      {
        heading: 'Subject: Your talk on onboarding at SaaSConf',
        paragraphs: [
          'Hi Maria, your point that most churn starts in week one stayed with me. We help teams like yours find that week-one drop-off in their own data, without an analyst.',
          'Would a 15-minute call next Tuesday be useful? If not, no reply needed.',
          'Best, Tom',
        ],
      },
    ],
  },
  'lesson-plan-generator': {
    kicker: 'Sample answer',
    sections: [
      { heading: 'Photosynthesis · Grade 7 · 45 minutes', paragraphs: ['Goal: pupils can explain how a plant turns light, water and air into sugar.'] },
      { heading: 'Activities', paragraphs: ['10 min — Leaf in a jar demo', '15 min — Draw the process in pairs', '15 min — Quiz and exit ticket'] },
    ],
  },
  'meeting-summariser': {
    kicker: 'Sample answer',
    sections: [
      { heading: 'Decisions', paragraphs: ['Launch moves to 14 March. Pricing stays as proposed.'] },
      { heading: 'Risks', paragraphs: ['The payment provider review may take two weeks.'] },
      { heading: 'Actions', paragraphs: ['Ana — update the roadmap (Fri)', 'Ben — book the review (Mon)'] },
    ],
  },
  'recipe-remixer': {
    kicker: 'Sample answer',
    sections: [
      { heading: 'Vegan lasagne, under €10', paragraphs: ['Swap the beef for red lentils and the béchamel for a cashew-free oat sauce. Serves four.'] },
      { heading: 'Shopping list', paragraphs: ['Red lentils · oat milk · passata · lasagne sheets · spinach · nutritional yeast'] },
    ],
  },
};

/** The whole document as plain text: the original a buyer downloads. */
export function documentText(title: string, description: string, doc: DemoDocument): string {
  const body = doc.sections.map((s) => `${s.heading}\n${'-'.repeat(Math.min(60, s.heading.length))}\n\n${s.paragraphs.join('\n\n')}`).join('\n\n');
  return `${title}\n${'='.repeat(title.length)}\n${doc.kicker}\n\n${description}\n\n${body}\n`;
}
