/** The dashboard's texts in the languages other than English (a missing text reads in English). */
import type { Lang } from "../../../lib/i18n.ts";
import type { DashTexts } from "../texts.ts";
import { de } from "./de.ts";
import { es } from "./es.ts";
import { fr } from "./fr.ts";
import { ja } from "./ja.ts";
import { ko } from "./ko.ts";
import { zh } from "./zh.ts";

export const TRANSLATIONS: Record<Lang, Partial<DashTexts>> = { en: {}, zh, ja, es, fr, de, ko };
