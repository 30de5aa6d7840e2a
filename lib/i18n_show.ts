/**
 * Texts of the show features (zones, messages, blackout, the operator's controls) in the seven
 * languages. The face's few are merged into the face texts; the rest go to the control page.
 */
import type { Lang } from "./i18n.ts";

const en = {
  zone_warning: "Warning",
  zone_danger: "Danger",
  zone_overtime: "Overtime",
  blackout_on: "Blackout: the speaker's screen is dark",
  adjust: "Adjust time",
  adjust_add: "Add {time}",
  adjust_take: "Take away {time}",
  message_heading: "Message to the speaker",
  message_text: "Text",
  message_color: "Colour",
  color_white: "White",
  color_green: "Green",
  color_yellow: "Yellow",
  color_red: "Red",
  message_flash: "Flash (times)",
  message_blackout: "Blackout",
  message_send: "Show",
  message_clear: "Clear",
  message_sent: "Message shown.",
  message_cleared: "Message cleared.",
  confirm_again: "Press {action} again to confirm.",
  open_viewer: "Open the speaker's screen",
  keys_hint: "Keys: Space start / pause, + and − one minute, R reset.",
};

export type ShowTexts = typeof en;

const zh: ShowTexts = {
  zone_warning: "警告",
  zone_danger: "危险",
  zone_overtime: "超时",
  blackout_on: "黑屏：演讲者的屏幕已变暗",
  adjust: "调整时间",
  adjust_add: "增加 {time}",
  adjust_take: "减少 {time}",
  message_heading: "给演讲者的消息",
  message_text: "文字",
  message_color: "颜色",
  color_white: "白色",
  color_green: "绿色",
  color_yellow: "黄色",
  color_red: "红色",
  message_flash: "闪烁（次数）",
  message_blackout: "黑屏",
  message_send: "显示",
  message_clear: "清除",
  message_sent: "消息已显示。",
  message_cleared: "消息已清除。",
  confirm_again: "再按一次“{action}”以确认。",
  open_viewer: "打开演讲者屏幕",
  keys_hint: "按键：空格 开始/暂停，+ 和 − 一分钟，R 重置。",
};

const ja: ShowTexts = {
  zone_warning: "警告",
  zone_danger: "危険",
  zone_overtime: "超過",
  blackout_on: "ブラックアウト：話者の画面は暗転中",
  adjust: "時間の調整",
  adjust_add: "{time} 追加",
  adjust_take: "{time} 減らす",
  message_heading: "話者へのメッセージ",
  message_text: "テキスト",
  message_color: "色",
  color_white: "白",
  color_green: "緑",
  color_yellow: "黄",
  color_red: "赤",
  message_flash: "点滅（回数）",
  message_blackout: "ブラックアウト",
  message_send: "表示",
  message_clear: "消去",
  message_sent: "メッセージを表示しました。",
  message_cleared: "メッセージを消去しました。",
  confirm_again: "確認のため、もう一度「{action}」を押してください。",
  open_viewer: "話者の画面を開く",
  keys_hint: "キー：スペース 開始/一時停止、+ と − 1分、R リセット。",
};

const es: ShowTexts = {
  zone_warning: "Aviso",
  zone_danger: "Peligro",
  zone_overtime: "Tiempo extra",
  blackout_on: "Pantalla negra: la pantalla del orador está oscura",
  adjust: "Ajustar tiempo",
  adjust_add: "Añadir {time}",
  adjust_take: "Quitar {time}",
  message_heading: "Mensaje al orador",
  message_text: "Texto",
  message_color: "Color",
  color_white: "Blanco",
  color_green: "Verde",
  color_yellow: "Amarillo",
  color_red: "Rojo",
  message_flash: "Parpadeos (veces)",
  message_blackout: "Pantalla negra",
  message_send: "Mostrar",
  message_clear: "Borrar",
  message_sent: "Mensaje mostrado.",
  message_cleared: "Mensaje borrado.",
  confirm_again: "Pulsa {action} otra vez para confirmar.",
  open_viewer: "Abrir la pantalla del orador",
  keys_hint: "Teclas: Espacio iniciar / pausar, + y − un minuto, R reiniciar.",
};

const fr: ShowTexts = {
  zone_warning: "Attention",
  zone_danger: "Danger",
  zone_overtime: "Dépassement",
  blackout_on: "Écran noir : l'écran de l'orateur est éteint",
  adjust: "Ajuster le temps",
  adjust_add: "Ajouter {time}",
  adjust_take: "Retirer {time}",
  message_heading: "Message à l'orateur",
  message_text: "Texte",
  message_color: "Couleur",
  color_white: "Blanc",
  color_green: "Vert",
  color_yellow: "Jaune",
  color_red: "Rouge",
  message_flash: "Clignotements (fois)",
  message_blackout: "Écran noir",
  message_send: "Afficher",
  message_clear: "Effacer",
  message_sent: "Message affiché.",
  message_cleared: "Message effacé.",
  confirm_again: "Appuyez de nouveau sur {action} pour confirmer.",
  open_viewer: "Ouvrir l'écran de l'orateur",
  keys_hint: "Touches : Espace démarrer / pause, + et − une minute, R réinitialiser.",
};

const de: ShowTexts = {
  zone_warning: "Warnung",
  zone_danger: "Gefahr",
  zone_overtime: "Überzeit",
  blackout_on: "Blackout: Der Bildschirm der Sprecherin ist dunkel",
  adjust: "Zeit anpassen",
  adjust_add: "{time} hinzufügen",
  adjust_take: "{time} abziehen",
  message_heading: "Nachricht an die Bühne",
  message_text: "Text",
  message_color: "Farbe",
  color_white: "Weiß",
  color_green: "Grün",
  color_yellow: "Gelb",
  color_red: "Rot",
  message_flash: "Blinken (Mal)",
  message_blackout: "Blackout",
  message_send: "Anzeigen",
  message_clear: "Löschen",
  message_sent: "Nachricht angezeigt.",
  message_cleared: "Nachricht gelöscht.",
  confirm_again: "Zum Bestätigen noch einmal {action} drücken.",
  open_viewer: "Bühnenbildschirm öffnen",
  keys_hint: "Tasten: Leertaste Start / Pause, + und − eine Minute, R Zurücksetzen.",
};

const ko: ShowTexts = {
  zone_warning: "경고",
  zone_danger: "위험",
  zone_overtime: "초과",
  blackout_on: "블랙아웃: 발표자 화면이 꺼져 있습니다",
  adjust: "시간 조정",
  adjust_add: "{time} 추가",
  adjust_take: "{time} 빼기",
  message_heading: "발표자에게 보내는 메시지",
  message_text: "텍스트",
  message_color: "색상",
  color_white: "흰색",
  color_green: "초록",
  color_yellow: "노랑",
  color_red: "빨강",
  message_flash: "깜박임(횟수)",
  message_blackout: "블랙아웃",
  message_send: "표시",
  message_clear: "지우기",
  message_sent: "메시지를 표시했습니다.",
  message_cleared: "메시지를 지웠습니다.",
  confirm_again: "확인하려면 {action}을(를) 한 번 더 누르세요.",
  open_viewer: "발표자 화면 열기",
  keys_hint: "키: 스페이스 시작/일시정지, + 와 − 1분, R 초기화.",
};

const DICTS: Record<Lang, ShowTexts> = { en, zh, ja, es, fr, de, ko };

/** The show texts of a language. */
export function showTexts(lang: Lang): ShowTexts {
  return DICTS[lang];
}

/** The few a timer face shows. */
export const SHOW_FACE_KEYS = ["zone_warning", "zone_danger", "zone_overtime", "blackout_on"] as const;
export type ShowFaceTexts = Pick<ShowTexts, typeof SHOW_FACE_KEYS[number]>;

export function showFaceTexts(lang: Lang): ShowFaceTexts {
  return Object.fromEntries(SHOW_FACE_KEYS.map((k) => [k, DICTS[lang][k]])) as ShowFaceTexts;
}
