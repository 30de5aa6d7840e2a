/**
 * Texts of the screen features (components/view_params.ts) in the seven languages: the viewer's
 * full-screen button, the time-of-day clock, the reconnecting badge, and the embed builder's
 * view options. Kept apart from i18n.ts so a widget page ships only `ScreenTexts`.
 */
import type { Lang } from "./i18n.ts";

const en = {
  fullscreen: "Full screen",
  exit_fullscreen: "Exit full screen",
  time_of_day: "Time of day",
  b_screens: "Screens and broadcast",
  b_mirror: "Mirror (teleprompter)",
  b_mirror_none: "None",
  b_mirror_h: "Left–right",
  b_mirror_v: "Upside down",
  b_mirror_both: "Both",
  b_transparent: "Transparent background (OBS, vMix)",
  b_delay: "Delay (seconds)",
  b_clock: "Show the time of day",
  b_hide_progress: "Hide the progress bar",
  b_clock_zone: "Time zone of the clock",
  b_clock_zone_note: "(empty: each viewer's own)",
};

export type ScreenTexts = typeof en;
/** What the widget island needs (the builder's texts stay on the home page). */
export type FaceScreenTexts = Pick<ScreenTexts, "fullscreen" | "exit_fullscreen" | "time_of_day">;

const DICTS: Record<Lang, ScreenTexts> = {
  en,
  zh: {
    fullscreen: "全屏",
    exit_fullscreen: "退出全屏",
    time_of_day: "当前时间",
    b_screens: "屏幕与直播",
    b_mirror: "镜像（提词器）",
    b_mirror_none: "无",
    b_mirror_h: "左右翻转",
    b_mirror_v: "上下翻转",
    b_mirror_both: "两者",
    b_transparent: "透明背景（OBS、vMix）",
    b_delay: "延迟（秒）",
    b_clock: "显示当前时间",
    b_hide_progress: "隐藏进度条",
    b_clock_zone: "时钟的时区",
    b_clock_zone_note: "（留空：观看者自己的时区）",
  },
  ja: {
    fullscreen: "全画面表示",
    exit_fullscreen: "全画面表示を終了",
    time_of_day: "現在時刻",
    b_screens: "画面と配信",
    b_mirror: "反転（プロンプター）",
    b_mirror_none: "なし",
    b_mirror_h: "左右",
    b_mirror_v: "上下",
    b_mirror_both: "両方",
    b_transparent: "透明な背景（OBS、vMix）",
    b_delay: "遅延（秒）",
    b_clock: "現在時刻を表示",
    b_hide_progress: "進行バーを隠す",
    b_clock_zone: "時計のタイムゾーン",
    b_clock_zone_note: "（空欄：閲覧者のタイムゾーン）",
  },
  es: {
    fullscreen: "Pantalla completa",
    exit_fullscreen: "Salir de pantalla completa",
    time_of_day: "Hora actual",
    b_screens: "Pantallas y emisión",
    b_mirror: "Espejo (teleprompter)",
    b_mirror_none: "Ninguno",
    b_mirror_h: "Izquierda–derecha",
    b_mirror_v: "Al revés",
    b_mirror_both: "Ambos",
    b_transparent: "Fondo transparente (OBS, vMix)",
    b_delay: "Retraso (segundos)",
    b_clock: "Mostrar la hora actual",
    b_hide_progress: "Ocultar la barra de progreso",
    b_clock_zone: "Zona horaria del reloj",
    b_clock_zone_note: "(vacío: la de cada espectador)",
  },
  fr: {
    fullscreen: "Plein écran",
    exit_fullscreen: "Quitter le plein écran",
    time_of_day: "Heure actuelle",
    b_screens: "Écrans et diffusion",
    b_mirror: "Miroir (prompteur)",
    b_mirror_none: "Aucun",
    b_mirror_h: "Gauche–droite",
    b_mirror_v: "À l’envers",
    b_mirror_both: "Les deux",
    b_transparent: "Fond transparent (OBS, vMix)",
    b_delay: "Retard (secondes)",
    b_clock: "Afficher l’heure",
    b_hide_progress: "Masquer la barre de progression",
    b_clock_zone: "Fuseau horaire de l’horloge",
    b_clock_zone_note: "(vide : celui de chaque spectateur)",
  },
  de: {
    fullscreen: "Vollbild",
    exit_fullscreen: "Vollbild beenden",
    time_of_day: "Uhrzeit",
    b_screens: "Bildschirme und Sendung",
    b_mirror: "Spiegeln (Teleprompter)",
    b_mirror_none: "Nicht",
    b_mirror_h: "Links–rechts",
    b_mirror_v: "Kopfüber",
    b_mirror_both: "Beides",
    b_transparent: "Transparenter Hintergrund (OBS, vMix)",
    b_delay: "Verzögerung (Sekunden)",
    b_clock: "Uhrzeit anzeigen",
    b_hide_progress: "Fortschrittsbalken ausblenden",
    b_clock_zone: "Zeitzone der Uhr",
    b_clock_zone_note: "(leer: die des Betrachters)",
  },
  ko: {
    fullscreen: "전체 화면",
    exit_fullscreen: "전체 화면 종료",
    time_of_day: "현재 시각",
    b_screens: "화면과 방송",
    b_mirror: "반전 (프롬프터)",
    b_mirror_none: "없음",
    b_mirror_h: "좌우",
    b_mirror_v: "상하",
    b_mirror_both: "모두",
    b_transparent: "투명한 배경 (OBS, vMix)",
    b_delay: "지연 (초)",
    b_clock: "현재 시각 표시",
    b_hide_progress: "진행 막대 숨기기",
    b_clock_zone: "시계의 시간대",
    b_clock_zone_note: "(비워 두면 보는 사람의 시간대)",
  },
};

export function screenTexts(lang: Lang): ScreenTexts {
  return DICTS[lang];
}

export function faceScreenTexts(lang: Lang): FaceScreenTexts {
  const t = DICTS[lang];
  return { fullscreen: t.fullscreen, exit_fullscreen: t.exit_fullscreen, time_of_day: t.time_of_day };
}
