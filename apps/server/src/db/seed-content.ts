/** The demo marketplace: what a first visitor sees after `npm start`. */

export const demoPassword = 'atelier-demo';

export const demoAccounts = [
  {
    email: 'buyer@example.com',
    name: 'Bianca',
    surname: 'Byrne',
    nickname: 'bianca',
    role: 'user',
    about: 'Collector of moody landscapes and clever prompts.',
    rate: 0,
  },
  {
    email: 'seller@example.com',
    name: 'Sofia',
    surname: 'Marin',
    nickname: 'sofia',
    role: 'user',
    about: 'Illustrator and prompt engineer from Lisbon.',
    rate: 4500,
  },
  { email: 'admin@example.com', name: 'Adam', surname: 'Novak', nickname: 'admin', role: 'admin', about: 'Moderator of Atelier.', rate: 0 },
] as const;

/** Other creators, so the storefront does not look like one person's shop; they cannot sign in. */
export const demoCreators = [
  { email: 'leo.hart@example.com', name: 'Leo', surname: 'Hart', nickname: 'leohart', about: 'Copywriter. Short words, long results.', rate: 6000 },
  { email: 'mira.chen@example.com', name: 'Mira', surname: 'Chen', nickname: 'mirachen', about: 'Digital painter obsessed with light.', rate: 5500 },
  { email: 'tomas.weber@example.com', name: 'Tomas', surname: 'Weber', nickname: 'tomasweber', about: 'I write prompts that behave.', rate: 4000 },
] as const;

export const demoCategories = [
  {
    title: 'Images',
    url: 'images',
    children: [
      { title: 'Illustrations', url: 'images/illustrations' },
      { title: 'Photography', url: 'images/photography' },
      { title: 'Abstract', url: 'images/abstract' },
    ],
  },
  {
    title: 'Texts',
    url: 'texts',
    children: [
      { title: 'Articles', url: 'texts/articles' },
      { title: 'Copywriting', url: 'texts/copywriting' },
      { title: 'Templates', url: 'texts/templates' },
    ],
  },
  {
    title: 'Prompts',
    url: 'prompts',
    children: [
      { title: 'Midjourney', url: 'prompts/midjourney' },
      { title: 'ChatGPT', url: 'prompts/chatgpt' },
      { title: 'Stable Diffusion', url: 'prompts/stable-diffusion' },
    ],
  },
] as const;

type DemoProduct = { title: string; description: string; category: string; tags: string[]; price: number };

export const demoImages: DemoProduct[] = [
  {
    title: 'Aurora Over Fjords',
    description: 'Ribbons of northern light folding over a silent fjord, painted in cold teal and violet.',
    category: 'images/illustrations',
    tags: ['landscape', 'night', 'aurora'],
    price: 2400,
  },
  {
    title: 'Neon Tokyo Alley',
    description: 'A rain-soaked alley glowing with signage, reflections pooling on the cobbles.',
    category: 'images/photography',
    tags: ['city', 'neon', 'rain'],
    price: 1900,
  },
  {
    title: 'Quiet Bloom',
    description: 'Soft geometric petals opening on a pastel field; calm and minimal.',
    category: 'images/abstract',
    tags: ['minimal', 'floral', 'pastel'],
    price: 1200,
  },
  {
    title: 'Desert Cartography',
    description: 'Dunes drawn like contour lines on an old explorer map, warm sand tones.',
    category: 'images/illustrations',
    tags: ['desert', 'map', 'warm'],
    price: 2100,
  },
  {
    title: 'Glasshouse Morning',
    description: 'Sunlight breaking through a Victorian greenhouse full of ferns.',
    category: 'images/photography',
    tags: ['botanical', 'light', 'morning'],
    price: 1600,
  },
  {
    title: 'Orbit Study No. 7',
    description: 'Concentric rings and satellites in a bold, poster-ready composition.',
    category: 'images/abstract',
    tags: ['space', 'poster', 'geometric'],
    price: 900,
  },
  {
    title: 'Harbour at Dusk',
    description: 'Fishing boats resting in a harbour while the sky turns copper.',
    category: 'images/illustrations',
    tags: ['sea', 'dusk', 'boats'],
    price: 2800,
  },
  {
    title: 'Brutalist Stairwell',
    description: 'Concrete spirals photographed from below; stark shadows and texture.',
    category: 'images/photography',
    tags: ['architecture', 'concrete', 'monochrome'],
    price: 1500,
  },
  {
    title: 'Citrus Waves',
    description: 'Playful orange and lime waves for packaging and social banners.',
    category: 'images/abstract',
    tags: ['pattern', 'summer', 'vibrant'],
    price: 700,
  },
  {
    title: 'Lantern Festival',
    description: 'Hundreds of paper lanterns drifting over a river at night.',
    category: 'images/illustrations',
    tags: ['festival', 'night', 'lanterns'],
    price: 3200,
  },
  {
    title: 'Alpine Lake Mirror',
    description: 'A perfectly still lake doubling the peaks above it.',
    category: 'images/photography',
    tags: ['mountains', 'lake', 'landscape'],
    price: 2200,
  },
  {
    title: 'Velvet Gradient Set',
    description: 'Deep velvet gradients for wallpapers, slides and app backgrounds.',
    category: 'images/abstract',
    tags: ['gradient', 'wallpaper', 'dark'],
    price: 500,
  },
];

export const demoDocs: DemoProduct[] = [
  {
    title: 'Launch Email Sequence',
    description: 'Five tested emails that take a product from teaser to launch day, with subject lines.',
    category: 'texts/copywriting',
    tags: ['email', 'marketing', 'launch'],
    price: 3900,
  },
  {
    title: 'Freelance Contract Template',
    description: 'Plain-language agreement for creative freelancers: scope, revisions, payment and rights.',
    category: 'texts/templates',
    tags: ['contract', 'freelance', 'legal'],
    price: 2900,
  },
  {
    title: 'The Slow Travel Essay',
    description: 'A 2,000-word essay on travelling by train across Europe, ready for a blog or magazine.',
    category: 'texts/articles',
    tags: ['travel', 'essay', 'europe'],
    price: 4500,
  },
  {
    title: 'Landing Page Copy Kit',
    description: 'Headlines, benefit blocks and calls to action for a SaaS landing page.',
    category: 'texts/copywriting',
    tags: ['saas', 'landing', 'conversion'],
    price: 3500,
  },
  {
    title: 'Meeting Notes Template',
    description: 'A clean structure for decisions, owners and follow-ups that teams actually use.',
    category: 'texts/templates',
    tags: ['productivity', 'meetings', 'notes'],
    price: 600,
  },
  {
    title: 'Guide to Sourdough',
    description: 'A friendly long-form article on starters, hydration and the first loaf.',
    category: 'texts/articles',
    tags: ['food', 'baking', 'guide'],
    price: 2500,
  },
  {
    title: 'Product Description Pack',
    description: 'Twenty persuasive descriptions for handmade jewellery shops.',
    category: 'texts/copywriting',
    tags: ['ecommerce', 'jewellery', 'descriptions'],
    price: 2700,
  },
  {
    title: 'Press Release Template',
    description: 'A newsroom-ready press release layout with boilerplate and quote slots.',
    category: 'texts/templates',
    tags: ['pr', 'press', 'news'],
    price: 1400,
  },
  {
    title: 'Remote Work Manifesto',
    description: 'An opinion piece on async culture, trust and deep work.',
    category: 'texts/articles',
    tags: ['remote', 'work', 'culture'],
    price: 3100,
  },
  {
    title: 'Podcast Show Notes Kit',
    description: 'Templates and examples for episode summaries, timestamps and guest bios.',
    category: 'texts/templates',
    tags: ['podcast', 'audio', 'notes'],
    price: 1100,
  },
  {
    title: 'Brand Voice Guide',
    description: 'A worked example of tone, vocabulary and do-and-do-not lists for a coffee brand.',
    category: 'texts/copywriting',
    tags: ['branding', 'voice', 'coffee'],
    price: 4200,
  },
  {
    title: 'Urban Gardening Article',
    description: 'How to grow herbs and greens on a balcony, in 1,500 words.',
    category: 'texts/articles',
    tags: ['garden', 'city', 'green'],
    price: 1800,
  },
];

export const demoPrompts: DemoProduct[] = [
  {
    title: 'Cinematic Portrait Prompt',
    description: 'Studio-lit portraits with film grain and shallow depth of field.',
    category: 'prompts/midjourney',
    tags: ['portrait', 'cinematic', 'film'],
    price: 499,
  },
  {
    title: 'Isometric City Builder',
    description: 'Tiny isometric city blocks with consistent lighting for game art.',
    category: 'prompts/stable-diffusion',
    tags: ['isometric', 'game', 'city'],
    price: 699,
  },
  {
    title: 'Cold Email Writer',
    description: 'A ChatGPT prompt that drafts short, personal cold emails from a LinkedIn profile.',
    category: 'prompts/chatgpt',
    tags: ['sales', 'email', 'outreach'],
    price: 899,
  },
  {
    title: 'Watercolor Botanicals',
    description: 'Loose watercolor flowers on textured paper, ready for prints.',
    category: 'prompts/midjourney',
    tags: ['watercolor', 'botanical', 'print'],
    price: 399,
  },
  {
    title: 'Product Photo Studio',
    description: 'Clean e-commerce product shots on seamless backgrounds.',
    category: 'prompts/stable-diffusion',
    tags: ['product', 'ecommerce', 'studio'],
    price: 799,
  },
  {
    title: 'Lesson Plan Generator',
    description: 'Turns a topic and grade into a structured lesson plan with activities.',
    category: 'prompts/chatgpt',
    tags: ['education', 'teaching', 'planning'],
    price: 599,
  },
  {
    title: 'Retro Sci-Fi Posters',
    description: 'Pulp-era science fiction posters with halftone textures.',
    category: 'prompts/midjourney',
    tags: ['retro', 'scifi', 'poster'],
    price: 549,
  },
  {
    title: 'Anime Character Sheet',
    description: 'Front, side and back views of an original character with colour notes.',
    category: 'prompts/stable-diffusion',
    tags: ['anime', 'character', 'design'],
    price: 649,
  },
  {
    title: 'Meeting Summariser',
    description: 'Summarises a transcript into decisions, risks and action items.',
    category: 'prompts/chatgpt',
    tags: ['meetings', 'summary', 'productivity'],
    price: 499,
  },
  {
    title: 'Cozy Interior Scenes',
    description: 'Warm reading nooks and cabins with soft evening light.',
    category: 'prompts/midjourney',
    tags: ['interior', 'cozy', 'warm'],
    price: 449,
  },
  {
    title: 'Logo Concept Explorer',
    description: 'Minimal vector-style logo concepts from a brand brief.',
    category: 'prompts/stable-diffusion',
    tags: ['logo', 'vector', 'branding'],
    price: 999,
  },
  {
    title: 'Recipe Remixer',
    description: 'Adapts any recipe to a diet, budget or pantry with a shopping list.',
    category: 'prompts/chatgpt',
    tags: ['food', 'recipes', 'planning'],
    price: 349,
  },
];

export const demoPacks = [
  {
    title: 'Night Lights Collection',
    description: 'Four night scenes: aurora, neon alley, lantern festival and harbour at dusk.',
    items: ['Aurora Over Fjords', 'Neon Tokyo Alley', 'Lantern Festival', 'Harbour at Dusk'],
    price: 7900,
    tags: ['night', 'collection'],
  },
  {
    title: 'Launch Starter Kit',
    description: 'Everything to announce a product: emails, landing copy and a press release.',
    items: ['Launch Email Sequence', 'Landing Page Copy Kit', 'Press Release Template'],
    price: 6900,
    tags: ['marketing', 'launch'],
  },
  {
    title: 'Prompt Essentials',
    description: 'Five versatile prompts for portraits, products, logos, emails and meetings.',
    items: ['Cinematic Portrait Prompt', 'Product Photo Studio', 'Logo Concept Explorer', 'Cold Email Writer', 'Meeting Summariser'],
    price: 2900,
    tags: ['prompts', 'bundle'],
  },
];

export const demoStaticPages = [
  {
    slug: 'terms',
    title: 'Terms of Service',
    isTerms: 1,
    isPrivacy: 0,
    isCookie: 0,
    content:
      '<h2>Terms of Service</h2><p>By using Atelier you agree to these terms. Creators keep the copyright of their works; buyers receive a licence for personal and commercial use of what they buy.</p><h3>Payments</h3><p>Prices are set by creators. Purchases are paid from your balance or by card.</p><script>alert("this never runs")</script><p onclick="steal()">Refunds are handled through support.</p>',
  },
  {
    slug: 'privacy',
    title: 'Privacy Policy',
    isTerms: 0,
    isPrivacy: 1,
    isCookie: 0,
    content:
      '<h2>Privacy Policy</h2><p>We store what we need to run your account: your name, e-mail, phone and the history of your purchases. We never store full card numbers.</p><p>Write to support to get a copy of your data or to delete it.</p>',
  },
  {
    slug: 'cookie-policy',
    title: 'Cookie Policy',
    isTerms: 0,
    isPrivacy: 0,
    isCookie: 1,
    content:
      '<h2>Cookie Policy</h2><ul><li><strong>cookie_consent</strong>: remembers your choice, 1 year.</li><li><strong>atelier_session</strong>: keeps you signed in, 2 hours.</li><li><strong>XSRF-TOKEN</strong>: protects forms, 2 hours.</li></ul><p>Analytics cookies are set only after you accept all.</p>',
  },
  {
    slug: 'about',
    title: 'About Atelier',
    isTerms: 0,
    isPrivacy: 0,
    isCookie: 0,
    content:
      '<h2>About Atelier</h2><p>Atelier is a marketplace where creators sell prompts, texts and original images directly to the people who use them.</p>',
  },
];

export const demoSocial = [
  { name: 'instagram', url: 'https://instagram.com/atelier', color: '#E1306C' },
  { name: 'behance', url: 'https://behance.net/atelier', color: '#1769FF' },
  { name: 'x', url: 'https://x.com/atelier', color: '#111111' },
];
