import type { ExperienceContext } from '../../../../src/tracker/types';

export declare const placements: Record<'layout' | 'hero' | 'below' | 'product', ExperienceContext>;
