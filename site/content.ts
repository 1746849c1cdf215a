import { defineCollection, type CollectionsOf, type PictureData } from 'ssg';
import { z } from 'zod';

// The shape of everything staff edit in content/*.yaml, written once: the build checks the files
// against it, and the pages take their types from it.

const text = z.string().trim().min(1, 'must not be empty');
/** A link target: an absolute http(s) URL or a path on this site. */
const href = z
  .string()
  .regex(/^(https?:\/\/[^\s]+|\/[^\s]*|mailto:[^\s]+)$/, 'must be an https:// URL or a path starting with /');
const externalUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an https:// URL');
/** A file in site/public, referenced from the site root. */
const publicPath = z.string().regex(/^\/[\w./-]+$/, 'must be a path in site/public, starting with /');

export const siteConfigSchema = z.strictObject({
  brand: text,
  email: z.email('must be an e-mail address'),
  baseUrl: externalUrl,
  description: text,
  social: z.strictObject({
    linkedin: externalUrl,
    telegram: externalUrl,
    x: externalUrl,
    github: externalUrl,
  }),
  challenge: z.strictObject({
    siteKey: text,
    /** The provider's script, rendered explicitly by the contact form. */
    scriptUrl: z.string().regex(/^(https:\/\/|\/)[^\s]+$/, 'must be an https:// URL (or a path, for tests)'),
  }),
  legal: z.strictObject({
    companyName: text,
    address: z.array(text).min(1),
    registerNumber: text,
    vatId: text,
    registerCourt: text,
    managingDirectors: z.array(text).min(1),
  }),
  /** What the German pages say where the fields above are English (`1010 Wien`); the rest as above. */
  de: z
    .strictObject({
      description: text.optional(),
      legal: z
        .strictObject({
          address: z.array(text).min(1).optional(),
          registerCourt: text.optional(),
        })
        .optional(),
    })
    .optional(),
  /** `allowed`: a demo or staging site that keeps example values, without the warning about them. */
  placeholders: z.literal('allowed').optional(),
});

export const networkSchema = z.strictObject({
  name: text,
  status: z.enum(['Active', 'Exploring']),
  logo: publicPath,
  address: text.optional(),
  tags: z.array(text),
  cta: z
    .strictObject({
      label: text,
      href,
      external: z.boolean().optional(),
    })
    .optional(),
  links: z.array(z.strictObject({ label: text, href })),
  copyItems: z.array(z.strictObject({ label: text, value: text })),
  noteTitle: text,
  note: text,
  /**
   * The card's words on the German page; what is left out shows as above. The labels of `links`
   * and `copyItems` in German, in their order.
   */
  de: z
    .strictObject({
      tags: z.array(text).optional(),
      ctaLabel: text.optional(),
      linkLabels: z.array(text).optional(),
      copyLabels: z.array(text).optional(),
      noteTitle: text.optional(),
      note: text.optional(),
    })
    .optional(),
});

export const networksSchema = z.array(networkSchema).min(1, 'must list at least one network');

export const teamMemberSchema = z.strictObject({
  name: text,
  role: text,
  bio: z.string(),
  photo: publicPath,
  links: z.strictObject({
    linkedin: externalUrl.optional(),
    github: externalUrl.optional(),
    x: externalUrl.optional(),
  }),
  /** The card's words on the German page; what is left out shows as above. */
  de: z.strictObject({ role: text.optional(), bio: z.string().optional() }).optional(),
});

export const teamSchema = z.array(teamMemberSchema);

export type SiteConfig = z.infer<typeof siteConfigSchema>;
export type Network = z.infer<typeof networkSchema>;
export type TeamMember = z.infer<typeof teamMemberSchema>;

export interface SiteData {
  site: SiteConfig;
  networks: Network[];
  team: TeamMember[];
  /** Processed raster images by public path (those `images` in site/index.tsx lists), from the build. */
  images?: Record<string, PictureData>;
  /** The pages' words, one entry per locale (content/strings/<locale>.yaml), as ssg reads them for `t`. */
  strings?: ReadonlyArray<{ id: string; data: unknown }>;
}

export const schemas = { site: siteConfigSchema, networks: networksSchema, team: teamSchema };

/** The articles staff write: content/news, each a page at /news/<slug>. */
export const collections = { news: defineCollection({ folder: 'news' }) };
export type Collections = CollectionsOf<typeof collections>;

/** Cloudflare's documented test site key: it always passes and must never go live. */
const TEST_SITE_KEYS = new Set(['1x00000000000000000000AA', '2x00000000000000000000AB', '3x00000000000000000000FF']);

function isExampleValue(value: string): boolean {
  return /example/i.test(value) || TEST_SITE_KEYS.has(value) || /0x0{40}/.test(value);
}

/** Every field, as `content/<file>.yaml → path`, whose value is still an example placeholder. */
export function exampleFields(data: SiteData): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string, file: string) => {
    if (typeof value === 'string') {
      if (isExampleValue(value)) found.push(`content/${file}.yaml → ${path}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`, file));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key, file);
    }
  };
  for (const file of ['site', 'networks', 'team'] as const) walk(data[file], '', file);
  return found;
}
