/**
 * Real research peptides for the demo catalog. Weights are the commonly published average
 * molecular weights; prices are typical research-market figures for the first vial size, which
 * the generator scales for larger vials and varies per vendor.
 */

export const CATEGORIES = [
  'healing',
  'growth-hormone',
  'metabolic',
  'cognitive',
  'cosmetic',
  'longevity',
  'immune',
  'sexual-health',
  'sleep',
  'muscle',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface DemoPeptide {
  slug: string;
  name: string;
  category: Category;
  /** g/mol */
  mw: string;
  aliases: string[];
  /** Short code vendors put in batch numbers. */
  code: string;
  /** Vial sizes in mg, smallest first. */
  vials: number[];
  /** USD for the smallest vial at an average vendor. */
  usd: number;
  /** 1..5: how many vendors stock it and how often it is batch-tested. */
  popularity: number;
}

type Row = [
  slug: string,
  name: string,
  category: Category,
  mw: string,
  aliases: string[],
  code: string,
  vials: number[],
  usd: number,
  popularity: number,
];

// biome-ignore format: one peptide per line reads better than one field per line
const ROWS: Row[] = [
  ['bpc-157', 'BPC-157', 'healing', '1419.5', ['Body Protection Compound 157', 'PL 14736', 'Bepecin'], 'BPC', [5, 10], 45, 5],
  ['tb-500', 'TB-500', 'healing', '889.0', ['Thymosin Beta-4', 'Thymosin Beta-4 Fragment', 'Ac-LKKTETQ'], 'TB500', [2, 5, 10], 40, 5],
  ['ara-290', 'ARA-290', 'healing', '1257.3', ['Cibinetide'], 'ARA', [10], 65, 1],
  ['larazotide', 'Larazotide', 'healing', '725.8', ['Larazotide Acetate', 'AT-1001'], 'LARA', [5], 55, 1],
  ['semaglutide', 'Semaglutide', 'metabolic', '4113.6', ['NN9535', 'GLP-1 Analogue'], 'SEMA', [2, 5, 10], 55, 5],
  ['tirzepatide', 'Tirzepatide', 'metabolic', '4813.5', ['LY3298176', 'GIP/GLP-1 Dual Agonist'], 'TIRZ', [5, 10, 20], 80, 5],
  ['retatrutide', 'Retatrutide', 'metabolic', '4731.3', ['LY3437943', 'Triple G'], 'RETA', [5, 10, 20], 110, 4],
  ['cagrilintide', 'Cagrilintide', 'metabolic', '4409.0', ['NN9838', 'AM833'], 'CAGRI', [5, 10], 95, 3],
  ['liraglutide', 'Liraglutide', 'metabolic', '3751.2', ['NN2211'], 'LIRA', [5, 10], 70, 2],
  ['exenatide', 'Exenatide', 'metabolic', '4186.6', ['Exendin-4', 'AC2993'], 'EXEN', [2, 5], 60, 1],
  ['pramlintide', 'Pramlintide', 'metabolic', '3949.4', ['Amylin Analogue', 'AC-137'], 'PRAM', [2, 5], 55, 1],
  ['aod-9604', 'AOD-9604', 'metabolic', '1815.1', ['Tyr-hGH Fragment 177-191', 'Anti-Obesity Drug 9604'], 'AOD', [2, 5], 45, 3],
  ['cjc-1295', 'CJC-1295', 'growth-hormone', '3367.9', ['Mod GRF 1-29', 'CJC-1295 without DAC', 'Modified GRF (1-29)'], 'CJC', [2, 5], 35, 4],
  ['cjc-1295-dac', 'CJC-1295 DAC', 'growth-hormone', '3647.2', ['CJC-1295 with DAC', 'DAC:GRF'], 'CJCD', [2, 5], 50, 3],
  ['ipamorelin', 'Ipamorelin', 'growth-hormone', '711.9', ['NNC 26-0161'], 'IPA', [2, 5, 10], 30, 5],
  ['sermorelin', 'Sermorelin', 'growth-hormone', '3357.9', ['GRF 1-29', 'Sermorelin Acetate'], 'SERM', [2, 5], 35, 3],
  ['tesamorelin', 'Tesamorelin', 'growth-hormone', '5135.9', ['TH9507'], 'TESA', [2, 5, 10], 60, 3],
  ['ghrp-2', 'GHRP-2', 'growth-hormone', '817.9', ['Pralmorelin', 'Growth Hormone Releasing Peptide-2'], 'GHRP2', [5, 10], 30, 2],
  ['ghrp-6', 'GHRP-6', 'growth-hormone', '873.0', ['Growth Hormone Releasing Hexapeptide'], 'GHRP6', [5, 10], 30, 2],
  ['hexarelin', 'Hexarelin', 'growth-hormone', '887.0', ['Examorelin'], 'HEX', [2, 5], 35, 2],
  ['igf-1-lr3', 'IGF-1 LR3', 'muscle', '9111.5', ['Long R3 IGF-1', 'Insulin-like Growth Factor 1 LR3'], 'IGF', [0.1, 1], 35, 3],
  ['selank', 'Selank', 'cognitive', '751.9', ['TP-7'], 'SEL', [5, 10], 40, 3],
  ['semax', 'Semax', 'cognitive', '813.9', ['ACTH (4-7) Pro-Gly-Pro'], 'SMX', [5, 10], 40, 3],
  ['dihexa', 'Dihexa', 'cognitive', '504.7', ['PNB-0408'], 'DHX', [10, 20], 55, 1],
  ['pinealon', 'Pinealon', 'cognitive', '418.4', ['Glu-Asp-Arg', 'EDR Peptide'], 'PIN', [10, 20], 45, 1],
  ['pt-141', 'PT-141', 'sexual-health', '1025.2', ['Bremelanotide'], 'PT141', [10], 45, 4],
  ['kisspeptin-10', 'Kisspeptin-10', 'sexual-health', '1302.4', ['Metastin (45-54)'], 'KISS', [5, 10], 40, 2],
  ['oxytocin', 'Oxytocin', 'sexual-health', '1007.2', ['Oxytocin Acetate'], 'OXY', [2, 5, 10], 30, 2],
  ['gonadorelin', 'Gonadorelin', 'sexual-health', '1182.3', ['GnRH', 'LHRH'], 'GON', [2, 5], 30, 2],
  ['melanotan-ii', 'Melanotan II', 'cosmetic', '1024.2', ['MT-2', 'MT-II'], 'MT2', [10], 35, 4],
  ['melanotan-i', 'Melanotan I', 'cosmetic', '1646.9', ['Afamelanotide', 'MT-1'], 'MT1', [10], 45, 2],
  ['ghk-cu', 'GHK-Cu', 'cosmetic', '403.9', ['Copper Peptide', 'Copper Tripeptide-1'], 'GHK', [50, 100], 35, 5],
  ['argireline', 'Argireline', 'cosmetic', '889.0', ['Acetyl Hexapeptide-3', 'Acetyl Hexapeptide-8'], 'ARG', [10], 30, 1],
  ['snap-8', 'Snap-8', 'cosmetic', '1075.2', ['Acetyl Octapeptide-3'], 'SNAP', [10], 35, 1],
  ['epitalon', 'Epitalon', 'longevity', '390.4', ['Epithalon', 'Epithalamin', 'AEDG Peptide'], 'EPI', [10, 50], 40, 4],
  ['mots-c', 'MOTS-c', 'longevity', '2174.6', ['Mitochondrial ORF of the 12S rRNA Type-c'], 'MOTS', [5, 10], 55, 3],
  ['ss-31', 'SS-31', 'longevity', '639.8', ['Elamipretide', 'MTP-131', 'Bendavia'], 'SS31', [10, 50], 75, 2],
  ['humanin', 'Humanin', 'longevity', '2687.2', ['HN'], 'HMN', [2, 5], 50, 1],
  ['thymosin-alpha-1', 'Thymosin Alpha-1', 'immune', '3108.3', ['Thymalfasin', 'TA-1'], 'TA1', [5, 10], 60, 3],
  ['ll-37', 'LL-37', 'immune', '4493.3', ['Cathelicidin', 'CAP-18 Fragment'], 'LL37', [5], 70, 2],
  ['kpv', 'KPV', 'immune', '342.4', ['Lys-Pro-Val', 'alpha-MSH (11-13)'], 'KPV', [5, 10], 40, 3],
  ['vip', 'VIP', 'immune', '3325.8', ['Vasoactive Intestinal Peptide', 'Aviptadil'], 'VIP', [5, 10], 55, 2],
  ['thymulin', 'Thymulin', 'immune', '858.9', ['Facteur Thymique Serique', 'FTS'], 'THY', [10], 50, 1],
  ['dsip', 'DSIP', 'sleep', '848.8', ['Delta Sleep-Inducing Peptide', 'Emideltide'], 'DSIP', [5, 10], 35, 3],
];

export const DEMO_PEPTIDES: readonly DemoPeptide[] = ROWS.map(
  ([slug, name, category, mw, aliases, code, vials, usd, popularity]) => ({
    slug,
    name,
    category,
    mw,
    aliases,
    code,
    vials,
    usd,
    popularity,
  }),
);
