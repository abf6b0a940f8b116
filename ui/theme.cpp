#include "ui/theme.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>
#include <QWidget>

#include <QStyle>
#include <QStyleFactory>
#include <algorithm>

namespace gui {

namespace {

// The desktop's own style and palette, captured before the first change so System can go back.
struct Original
{
    QString style;
    QPalette palette;
    bool captured = false;
};

Original &original()
{
    static Original o;
    if (!o.captured && qApp) {
        o.style = QApplication::style()->name();
        o.palette = QApplication::palette();
        o.captured = true;
    }
    return o;
}

models::AppSettings::Theme g_current = models::AppSettings::Theme::System;

} // namespace

QPalette Theme::darkPalette()
{
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor text(220, 220, 220);
    const QColor disabled(127, 127, 127);
    const QColor highlight(42, 130, 218);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
    return p;
}

void Theme::apply(models::AppSettings::Theme theme)
{
    if (!qApp)
        return;
    const Original &o = original();
    switch (theme) {
    case models::AppSettings::Theme::System:
        QApplication::setStyle(QStyleFactory::create(o.style));
        QApplication::setPalette(o.palette);
        break;
    case models::AppSettings::Theme::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case models::AppSettings::Theme::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
    g_current = theme;
}

models::AppSettings::Theme Theme::current()
{
    return g_current;
}

QColor Theme::errorColor()
{
    return isDark() ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QIcon Theme::tintedIfGrey(const QIcon &icon, const QColor &glyph)
{
    QList<QSize> sizes = icon.availableSizes();
    if (sizes.isEmpty())
        sizes = {QSize(16, 16), QSize(22, 22), QSize(32, 32)};
    QIcon out;
    for (const QSize &size : std::as_const(sizes)) {
        QImage image = icon.pixmap(size).toImage().convertToFormat(QImage::Format_ARGB32);
        int maxSaturation = 0;
        for (int y = 0; y < image.height(); ++y) {
            const QRgb *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
            for (int x = 0; x < image.width(); ++x)
                if (qAlpha(line[x]) > 64)
                    maxSaturation = std::max(maxSaturation, QColor::fromRgb(line[x]).hsvSaturation());
        }
        if (maxSaturation > 60) // a coloured icon: it reads on any background
            return icon;
        for (int y = 0; y < image.height(); ++y) {
            QRgb *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < image.width(); ++x)
                line[x] = qRgba(glyph.red(), glyph.green(), glyph.blue(), qAlpha(line[x]));
        }
        out.addPixmap(QPixmap::fromImage(image));
    }
    return out;
}

QIcon Theme::standardIcon(QStyle::StandardPixmap which, const QWidget *widget)
{
    QStyle *style = widget ? widget->style() : QApplication::style();
    const QIcon icon = style->standardIcon(which, nullptr, widget);
    const QPalette pal = widget ? widget->palette() : QApplication::palette();
    const bool dark = pal.color(QPalette::WindowText).lightness() > pal.color(QPalette::Window).lightness();
    return dark ? tintedIfGrey(icon, pal.color(QPalette::ButtonText)) : icon;
}

bool Theme::isDark()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::WindowText).lightness() > p.color(QPalette::Window).lightness();
}

} // namespace gui
