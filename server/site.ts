/** The site's name, shown in page titles, email senders and templates. */
export const SITE_NAME = "Bastion";
