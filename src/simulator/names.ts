/**
 * Name generation. Names are combined from common given names, surnames and
 * invented syllables, so they sound plausible without naming real people.
 */
import { pick, pickWeighted, type Rng } from './prng.js';

export type Country = 'NG' | 'GH' | 'ZA' | 'KE' | 'UK' | 'US' | 'FR' | 'JM' | 'CI' | 'CM';

const AFROBEATS_COUNTRIES: readonly (readonly [Country, number])[] = [
  ['NG', 45],
  ['GH', 14],
  ['ZA', 10],
  ['KE', 6],
  ['CI', 5],
  ['CM', 5],
  ['UK', 8],
  ['US', 4],
  ['FR', 3],
];
const OTHER_COUNTRIES: readonly (readonly [Country, number])[] = [
  ['US', 35],
  ['UK', 22],
  ['FR', 12],
  ['JM', 10],
  ['ZA', 7],
  ['NG', 6],
  ['GH', 3],
  ['KE', 3],
  ['CI', 1],
  ['CM', 1],
];

type Region = 'westAfricaEn' | 'ghana' | 'south' | 'east' | 'francophone' | 'anglo' | 'caribbean';

const REGION_OF: Record<Country, Region> = {
  NG: 'westAfricaEn',
  GH: 'ghana',
  ZA: 'south',
  KE: 'east',
  CI: 'francophone',
  CM: 'francophone',
  FR: 'francophone',
  UK: 'anglo',
  US: 'anglo',
  JM: 'caribbean',
};

const GIVEN: Record<Region, readonly string[]> = {
  westAfricaEn: [
    'Ade',
    'Ayo',
    'Tunde',
    'Chidi',
    'Femi',
    'Kizz',
    'Wale',
    'Seyi',
    'Bisi',
    'Ife',
    'Tobi',
    'Kemi',
    'Dami',
    'Obi',
    'Nneka',
    'Ebuka',
    'Zino',
    'Dayo',
    'Lola',
    'Temi',
    'Uche',
    'Bayo',
  ],
  ghana: ['Kofi', 'Kwame', 'Ama', 'Akosua', 'Yaw', 'Esi', 'Kojo', 'Efua', 'Kwesi', 'Abena'],
  south: ['Thando', 'Sipho', 'Lerato', 'Zola', 'Naledi', 'Bongani', 'Ayanda', 'Lindiwe', 'Themba'],
  east: ['Wanjiru', 'Otieno', 'Achieng', 'Njeri', 'Baraka', 'Akinyi', 'Juma', 'Zawadi'],
  francophone: [
    'Yao',
    'Koffi',
    'Aya',
    'Serge',
    'Ines',
    'Didier',
    'Awa',
    'Fabrice',
    'Mariam',
    'Junior',
  ],
  anglo: [
    'Jay',
    'Leah',
    'Marcus',
    'Nia',
    'Tyler',
    'Maya',
    'Jordan',
    'Kai',
    'Eli',
    'Zara',
    'Remy',
    'Skye',
  ],
  caribbean: ['Shane', 'Tamika', 'Devon', 'Kemar', 'Shanique', 'Romaine', 'Tajay', 'Alia'],
};

const FAMILY: Record<Region, readonly string[]> = {
  westAfricaEn: [
    'Adeyemi',
    'Okafor',
    'Balogun',
    'Eze',
    'Adebayo',
    'Okonkwo',
    'Nwosu',
    'Olawale',
    'Bakare',
    'Afolabi',
    'Ogunleye',
    'Ibe',
    'Chukwu',
  ],
  ghana: ['Mensah', 'Boateng', 'Owusu', 'Asante', 'Appiah', 'Darko', 'Ofori', 'Quaye'],
  south: ['Nkosi', 'Dlamini', 'Mokoena', 'Khumalo', 'Ndlovu', 'Mahlangu', 'Sithole'],
  east: ['Mwangi', 'Odhiambo', 'Kiprono', 'Wambui', 'Ochieng', 'Mutua', 'Njoroge'],
  francophone: ['Kouassi', 'Traore', 'Bamba', 'Ndongo', 'Mbarga', 'Essomba', 'Diabate', 'Kone'],
  anglo: ['Brooks', 'Carter', 'Hayes', 'Reid', 'Foster', 'Lane', 'Monroe', 'Vance', 'Holloway'],
  caribbean: ['Campbell', 'Grant', 'Clarke', 'Thompson', 'Francis', 'McKenzie', 'Bailey'],
};

const STAGE_PREFIXES = ['DJ', 'Lil', 'Young', 'King', 'Queen', 'MC', 'Baby', 'Prince'];
const SYLLABLES = [
  'ka',
  'zo',
  'mi',
  'ra',
  'ye',
  'tu',
  'lo',
  'ni',
  'sa',
  'bo',
  'fe',
  'di',
  'ko',
  'ja',
  'wa',
  're',
  'xa',
  'vi',
];
const STAGE_ENDINGS = ['', '', 'x', 'z', 'ne', 'o', 'ey'];

export function pickCountry(rng: Rng, isAfrobeats: boolean): Country {
  return pickWeighted(rng, isAfrobeats ? AFROBEATS_COUNTRIES : OTHER_COUNTRIES);
}

export function artistName(rng: Rng, country: Country): string {
  const region = REGION_OF[country];
  const style = rng();
  if (style < 0.45) return `${pick(rng, GIVEN[region])} ${pick(rng, FAMILY[region])}`;
  if (style < 0.65) return `${pick(rng, STAGE_PREFIXES)} ${pick(rng, GIVEN[region])}`;
  if (style < 0.9) return capitalise(inventedWord(rng) + pick(rng, STAGE_ENDINGS));
  return `${capitalise(inventedWord(rng))} ${pick(rng, FAMILY[region])}`;
}

const TITLE_WORDS = [
  'Love',
  'Fire',
  'Lagos',
  'Night',
  'Wahala',
  'Jollof',
  'Money',
  'Sunshine',
  'Dance',
  'Ginger',
  'Body',
  'Gold',
  'Waist',
  'Energy',
  'Ocean',
  'Sugar',
  'Vibes',
  'Calm',
  'Highlife',
  'Mercy',
  'Blessings',
  'Runway',
  'Accra',
  'Johannesburg',
  'Nairobi',
  'Paris',
  'Kingston',
  'Rain',
  'Honey',
  'Palm Wine',
  'Shakara',
  'Odogwu',
  'Soweto',
  'Amapiano',
  'Balance',
  'Dreams',
  'Midnight',
  'Rhythm',
  'Ayo',
  'Oluwa',
  'Skyline',
  'Champion',
  'Dangerous',
  'Forever',
  'Sweet',
  'Wild',
  'Electric',
  'Moonlight',
  'Tropical',
  'Sunday',
];
const TITLE_PATTERNS: readonly ((rng: Rng) => string)[] = [
  (rng) => pick(rng, TITLE_WORDS),
  (rng) => `${pick(rng, TITLE_WORDS)} ${pick(rng, TITLE_WORDS)}`,
  (rng) =>
    `${pick(rng, ['My', 'Your', 'Our', 'No More', 'Only', 'Too Much'])} ${pick(rng, TITLE_WORDS)}`,
  (rng) =>
    `${pick(rng, TITLE_WORDS)} ${pick(rng, ['Dey', 'Na', 'For', 'In', 'On'])} ${pick(rng, TITLE_WORDS)}`,
  (rng) => capitalise(inventedWord(rng)),
];

export function songTitle(rng: Rng): string {
  return pick(rng, TITLE_PATTERNS)(rng);
}

export function albumTitle(rng: Rng): string {
  const style = rng();
  if (style < 0.4)
    return `${pick(rng, TITLE_WORDS)} ${pick(rng, ['Tape', 'Diaries', 'Season', 'Chronicles', 'Sessions'])}`;
  if (style < 0.7)
    return `The ${pick(rng, ['African', 'Golden', 'Last', 'First', 'Midnight', 'Young'])} ${pick(rng, TITLE_WORDS)}`;
  return pick(rng, TITLE_WORDS);
}

export const AWARD_NAMES = [
  'Afro Music Award',
  'Continental Sound Award',
  'Global Rhythm Award',
  'Urban Beats Award',
];
export const AWARD_CATEGORIES = [
  'Best Male Artist',
  'Best Female Artist',
  'Song of the Year',
  'Album of the Year',
  'Best Collaboration',
  'Best New Artist',
  'Best Global Music Performance',
  'Artist of the Year',
];

/** Lower-case, hyphenated, ASCII only: the slug alphabet is a-z, 0-9 and '-'. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'untitled' : slug;
}

function inventedWord(rng: Rng): string {
  const count = 2 + Math.floor(rng() * 2);
  let word = '';
  for (let i = 0; i < count; i += 1) word += pick(rng, SYLLABLES);
  return word;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
