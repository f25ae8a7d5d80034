import en from "./en.js";
export default { ...en, "lang.name": "nb" };
